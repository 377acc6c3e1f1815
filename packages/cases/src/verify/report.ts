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
  /** Wall time from start to end of this case (includes waiting for the shared sandbox pool). */
  elapsed_ms: number;
  /** Wall time of this case's own sandbox runs, summed (what the case costs: find the slow ones by this). */
  sandbox_ms: number;
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
  /**
   * Cases that use the sandbox verified at the same time (default 8; the sandbox pool bounds the processes,
   * this only keeps it fed). Cases that need no sandbox never wait for those.
   */
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

/** The lines `cases verify` prints for one result: FAIL with its problems; with `verbose`, ok and warnings too. */
export function verifyResultText(r: CaseVerifyResult, verbose: boolean): string {
  let text = '';
  if (!r.ok) text += `FAIL ${r.id} (${r.file})\n${r.problems.map((p) => `  - ${p}\n`).join('')}`;
  else if (verbose) text += `ok   ${r.id} (${(r.elapsed_ms / 1000).toFixed(1)} s; sandbox ${(r.sandbox_ms / 1000).toFixed(1)} s)\n`;
  if (verbose) for (const w of r.warnings) text += `  warning: ${w}\n`;
  return text;
}

/** The eight slowest cases by their own sandbox time (elapsed time also counts waiting for the shared pool). */
export function slowestCasesLine(results: readonly CaseVerifyResult[]): string {
  const slow = [...results].sort((a, b) => b.sandbox_ms - a.sandbox_ms).slice(0, 8);
  const total = results.reduce((a, r) => a + r.sandbox_ms, 0);
  return `slowest (own sandbox time): ${slow.map((r) => `${r.id} ${(r.sandbox_ms / 1000).toFixed(1)} s`).join(', ')}; all cases ${(total / 1000).toFixed(1)} s of sandbox time\n`;
}
