import type { Clock } from '@crucibleforge/core';
import type { Sandbox } from '@crucibleforge/sandbox';
import type { Calibration } from '../calibration';

/** What `cases verify` found for one case. */
export interface CaseVerifyResult {
  id: string;
  file: string;
  category: string;
  seeded: boolean;
  /** The seeds materialised (null for an unseeded case). */
  seeds: (number | null)[];
  ok: boolean;
  problems: string[];
  warnings: string[];
  executed: number;
  rederived: number;
  negative_controls: number;
  haystacks: number;
  /** Complexity-enforcing code cases: the host-calibrated limit per seed. */
  calibrations: Calibration[];
  /** Wall time spent verifying this case (to find the slow ones). */
  elapsed_ms: number;
}

/** The whole report; the JSON written by `cases verify --json` (held-out checks read these names). */
export interface VerifyReport {
  checked: number;
  /** Cases with at least one problem. */
  problems: number;
  executed: number;
  rederived: number;
  negative_controls: number;
  haystacks: number;
  results: CaseVerifyResult[];
  /** Every calibration measured, so a runner can grade with the same limits. */
  calibrations: Calibration[];
}

export interface VerifyOptions {
  /** The sandbox, or a factory called once when the first case needs one (lets a run without code skip it). */
  sandbox?: Sandbox | (() => Promise<Sandbox>);
  /** Cases verified at the same time (default 4; the sandbox pool bounds the processes). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called as each case finishes (progress). */
  onResult?: (result: CaseVerifyResult) => void;
  /** For elapsed_ms (default: the system clock). */
  clock?: Clock;
}

export function formatVerifySummary(r: Pick<VerifyReport, 'checked' | 'problems' | 'executed' | 'rederived' | 'negative_controls' | 'haystacks'>): string {
  return `${r.checked} cases checked, ${r.problems} with problems (${r.executed} reference solutions executed, ${r.rederived} answers re-derived, ${r.negative_controls} negative controls failed as expected, ${r.haystacks} haystacks rebuilt)`;
}
