import type { Sandbox } from '@crucibleforge/sandbox';
import { runCodeTests } from './graders/code';
import type { GraderOf } from './schema/graders';
import type { ConcreteCase } from './types';

export const DEFAULT_COMPLEXITY_MULTIPLE = 10;
export const DEFAULT_COMPLEXITY_FLOOR_S = 2;
/** The reference itself gets this long while being measured. */
export const CALIBRATION_RUN_LIMIT_MS = 60_000;

/** A host-calibrated time limit for a complexity-enforcing case: max(floor, multiple × reference time). */
export interface Calibration {
  case_id: string;
  seed: number | null;
  /**
   * The reference's measured wall time on this host — the limit is based on it, so a slow or busy host
   * gets a proportionally longer limit (graded code runs under the same conditions).
   */
  reference_ms: number;
  reference_wall_ms: number;
  reference_cpu_ms: number | null;
  multiple: number;
  floor_ms: number;
  limit_ms: number;
  /** false when the reference itself failed its tests while being measured (the limit is then the floor). */
  reference_passed: boolean;
}

export function calibratedLimit(referenceMs: number, grader: GraderOf<'code'>): { multiple: number; floor_ms: number; limit_ms: number } {
  const multiple = grader.complexity?.multiple ?? DEFAULT_COMPLEXITY_MULTIPLE;
  const floorMs = (grader.complexity?.floor_s ?? DEFAULT_COMPLEXITY_FLOOR_S) * 1000;
  return { multiple, floor_ms: floorMs, limit_ms: Math.max(floorMs, Math.ceil(multiple * referenceMs)) };
}

/** Measures the reference solution on this host (one sandboxed run) and derives the limit. */
export async function calibrateCase(concrete: ConcreteCase, sandbox: Sandbox, signal?: AbortSignal): Promise<Calibration> {
  const grader = concrete.grader as GraderOf<'code'>;
  const result = await runCodeTests(grader, concrete.reference.solution ?? '', sandbox, CALIBRATION_RUN_LIMIT_MS, signal);
  const basis = result.wall_ms;
  return {
    case_id: concrete.id,
    seed: concrete.seed,
    reference_ms: basis,
    reference_wall_ms: result.wall_ms,
    reference_cpu_ms: result.cpu_ms,
    reference_passed: result.passed,
    ...calibratedLimit(basis, grader),
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
