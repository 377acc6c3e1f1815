import type { Sandbox } from '@crucibleforge/sandbox';
import { runCodeTests } from './graders/code';
import type { GraderOf } from './schema/graders';
import type { ConcreteCase } from './types';

export const DEFAULT_COMPLEXITY_MULTIPLE = 10;
export const DEFAULT_COMPLEXITY_FLOOR_S = 1;
/** The reference itself gets this long while being measured. */
export const CALIBRATION_RUN_LIMIT_MS = 60_000;

/**
 * The limit never falls below this many times the reference's own wall time at calibration, so on a busy
 * host the reference — and any correct solution up to this much slower — still passes.
 */
export const WALL_HEADROOM = 3;

/**
 * A host-calibrated time limit for a complexity-enforcing case:
 * `max(floor, multiple × reference CPU time, WALL_HEADROOM × reference wall time)`.
 */
export interface Calibration {
  case_id: string;
  seed: number | null;
  /**
   * The basis of the multiple: the reference's CPU time on this host (its wall time when the CPU time was
   * not reported). CPU time does not grow with the host's load, so a calibration on a busy host does not
   * hand naive algorithms a limit several times too long; the wall headroom protects correct code there.
   */
  reference_ms: number;
  reference_wall_ms: number;
  reference_cpu_ms: number | null;
  multiple: number;
  floor_ms: number;
  /** WALL_HEADROOM × reference_wall_ms. */
  headroom_ms: number;
  limit_ms: number;
  /** false when the reference itself failed its tests while being measured (the limit is then the floor). */
  reference_passed: boolean;
}

export interface CalibratedLimit {
  multiple: number;
  floor_ms: number;
  headroom_ms: number;
  limit_ms: number;
}

/** The wall limit for a measured reference: max(floor, multiple × CPU time (or wall), WALL_HEADROOM × wall). */
export function calibratedLimit(measured: { wall_ms: number; cpu_ms: number | null }, grader: GraderOf<'code'>): CalibratedLimit {
  const multiple = grader.complexity?.multiple ?? DEFAULT_COMPLEXITY_MULTIPLE;
  const floorMs = (grader.complexity?.floor_s ?? DEFAULT_COMPLEXITY_FLOOR_S) * 1000;
  const basis = measured.cpu_ms ?? measured.wall_ms;
  const headroomMs = Math.ceil(WALL_HEADROOM * measured.wall_ms);
  return { multiple, floor_ms: floorMs, headroom_ms: headroomMs, limit_ms: Math.max(floorMs, Math.ceil(multiple * basis), headroomMs) };
}

/** Measures the reference solution on this host (one sandboxed run) and derives the limit. */
export async function calibrateCase(concrete: ConcreteCase, sandbox: Sandbox, signal?: AbortSignal): Promise<Calibration> {
  const grader = concrete.grader as GraderOf<'code'>;
  const { outcome, result } = await runCodeTests(grader, concrete.reference.solution ?? '', sandbox, CALIBRATION_RUN_LIMIT_MS, signal);
  // Both processes' CPU (the solution and the checker that feeds it), as the old one-process run counted it.
  const measured = { wall_ms: result.wall_ms, cpu_ms: result.cpu_ms };
  return {
    case_id: concrete.id,
    seed: concrete.seed,
    reference_ms: measured.cpu_ms ?? measured.wall_ms,
    reference_wall_ms: result.wall_ms,
    reference_cpu_ms: result.cpu_ms,
    reference_passed: outcome.status === 'pass',
    ...calibratedLimit(measured, grader),
  };
}

const cache = new WeakMap<Sandbox, Map<string, Promise<Calibration>>>();

/**
 * The calibration for a case on this sandbox, measured once per (sandbox, case, revision, seed) and then
 * reused, so a runner that grades without calibrating first still gets a host-fair limit.
 */
export function cachedCalibration(concrete: ConcreteCase, sandbox: Sandbox): Promise<Calibration> {
  let perSandbox = cache.get(sandbox);
  if (!perSandbox) cache.set(sandbox, (perSandbox = new Map()));
  const key = `${concrete.id}@${concrete.revision}#${concrete.seed ?? ''}`;
  let found = perSandbox.get(key);
  if (!found) {
    found = calibrateCase(concrete, sandbox);
    found.catch(() => perSandbox!.delete(key));
    perSandbox.set(key, found);
  }
  return found;
}
