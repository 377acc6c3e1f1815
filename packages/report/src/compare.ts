import type { ResultRow } from '@crucibleforge/core';
import { compareAbility, pairCases, sideRows, type PairedCase, type SideName } from './compare-ability';
import { DEFAULT_GATE, DEFAULT_THRESHOLDS, evaluateGate, GATE_METRICS } from './compare-gate';
import { compareSpeed } from './compare-speed';
import { COMPARISON_SCHEMA_VERSION, type CompareInput, type CompareSide, type CompareThresholds, type Comparison, type Exclusions, type SideInfo } from './compare-types';
import { compareUsage } from './compare-usage';
import { judgeKey, judgeLabel, listSome } from './comparability';
import { ReportError } from './errors';
import { ALPHA } from './paired';

function sideInfo(side: CompareSide, rows: readonly ResultRow[]): SideInfo {
  const ids = [...new Set(rows.map((r) => r.model_id).filter((id) => typeof id === 'string' && id !== ''))];
  return {
    run_id: side.run_id,
    model: side.model,
    label: `${side.run_id}:${side.model}`,
    model_id: ids.length === 1 ? ids[0]! : null,
    seed: side.seed ?? null,
    rows: rows.length,
  };
}

function checkOptions(input: CompareInput): { alpha: number; thresholds: CompareThresholds } {
  const alpha = input.alpha ?? ALPHA;
  if (!(alpha > 0 && alpha < 1)) throw new ReportError('REPORT_INVALID_INPUT', `alpha must be between 0 and 1, got ${String(alpha)}`, { details: { field: 'alpha' } });
  const thresholds: CompareThresholds = { ...DEFAULT_THRESHOLDS, ...input.thresholds };
  for (const [field, value] of Object.entries(thresholds)) {
    if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
      throw new ReportError('REPORT_INVALID_INPUT', `thresholds.${field} must be a number ≥ 0, got ${String(value)}`, { details: { field: `thresholds.${field}` } });
    }
  }
  for (const metric of input.gate ?? []) {
    if (!GATE_METRICS.includes(metric)) {
      throw new ReportError('REPORT_UNKNOWN_GATE', `unknown gate ${JSON.stringify(metric)} (expected ${GATE_METRICS.join(', ')})`, { details: { gate: metric } });
    }
  }
  return { alpha, thresholds };
}

const seedText = (seed: number | null) => (seed === null ? 'none' : String(seed));

/** One clause per kind of left-out case, e.g. `3 at a different seed (baseline seed 1, candidate seed 2: …)`. */
function exclusionClauses(x: Exclusions, baseline: SideInfo, candidate: SideInfo): string[] {
  const out: string[] = [];
  if (x.baseline_only.length > 0) out.push(`${x.baseline_only.length} only in the baseline (${listSome(x.baseline_only)})`);
  if (x.candidate_only.length > 0) out.push(`${x.candidate_only.length} only in the candidate (${listSome(x.candidate_only)})`);
  if (x.revision.length > 0) {
    const first = x.revision[0]!;
    out.push(
      `${x.revision.length} at a different case revision (e.g. ${first.case_id}: ${first.baseline} vs ${first.candidate}; the case was edited between the runs, so rerun one side on the same cases)`,
    );
  }
  if (x.seed.length > 0) {
    const first = x.seed[0]!;
    const runs =
      baseline.seed !== null && candidate.seed !== null
        ? `baseline run seed ${baseline.seed}, candidate run seed ${candidate.seed}`
        : `e.g. ${first.case_id}: seed ${seedText(first.baseline)} vs ${seedText(first.candidate)}`;
    const fix = baseline.seed !== null ? `; rerun with --seed ${baseline.seed}` : '';
    out.push(`${x.seed.length} at a different seed (${runs}: seeded cases drew other numbers${fix})`);
  }
  if (x.ungraded.length > 0) {
    out.push(`${x.ungraded.length} not graded on both sides (pending the judge, skipped or errored: ${listSome(x.ungraded.map((u) => u.case_id))})`);
  }
  return out;
}

function nothingShared(x: Exclusions, baseline: SideInfo, candidate: SideInfo): ReportError {
  const common = x.revision.length + x.seed.length + x.ungraded.length;
  const why =
    common === 0
      ? `they have no case in common (baseline ${baseline.rows} cases, candidate ${candidate.rows} cases)`
      : `of their ${common} common cases, ${exclusionClauses({ ...x, baseline_only: [], candidate_only: [] }, baseline, candidate).join('; ')}`;
  return new ReportError(
    'REPORT_COMPARE_NOTHING_SHARED',
    `baseline ${baseline.label} and candidate ${candidate.label} share no case graded on both at the same revision and seed: ${why}`, { details: { baseline: baseline.label, candidate: candidate.label, revision: x.revision.length, seed: x.seed.length, ungraded: x.ungraded.length } },
  );
}

/** A note when the paired judged cases were judged by different judges on the two sides. */
function judgeNote(paired: readonly PairedCase[]): string | null {
  const differ = paired.filter((p) => p.baseline.judge && p.candidate.judge && judgeKey(p.baseline.judge.identity) !== judgeKey(p.candidate.judge.identity));
  if (differ.length === 0) return null;
  const first = differ[0]!;
  return (
    `${differ.length} judged case${differ.length === 1 ? ' was' : 's were'} judged by different judges ` +
    `(baseline ${judgeLabel(first.baseline.judge!.identity)}, candidate ${judgeLabel(first.candidate.judge!.identity)}): their verdicts are not strictly comparable`
  );
}

/**
 * Compares a candidate with a baseline (two models of one run, or one model across two runs). Pure: rows and
 * speed summaries in, the comparison out. Ability is an exact paired test over the cases both sides graded at
 * the same revision and seed; speed weighs the change against the spread of both speed runs' rounds; cost and
 * output tokens per case get a sign test. Throws ReportError for malformed input, a model without rows
 * (REPORT_COMPARE_UNKNOWN_MODEL) and sides without a shared graded case (REPORT_COMPARE_NOTHING_SHARED).
 */
export function compareRuns(input: CompareInput): Comparison {
  const { alpha, thresholds } = checkOptions(input);
  const rowsOf = (name: SideName) => sideRows(input[name], name);
  const baselineRows = rowsOf('baseline');
  const candidateRows = rowsOf('candidate');
  const baseline = sideInfo(input.baseline, baselineRows);
  const candidate = sideInfo(input.candidate, candidateRows);
  const { paired, excluded } = pairCases(baselineRows, candidateRows);
  if (paired.length === 0) throw nothingShared(excluded, baseline, candidate);

  const ability = compareAbility(paired, excluded, alpha);
  const speed = compareSpeed(
    { summary: input.baseline.speed, label: `the baseline ${baseline.label}` },
    { summary: input.candidate.speed, label: `the candidate ${candidate.label}` },
  );
  const cost = compareUsage('cost_usd', paired, alpha);
  const tokens = compareUsage('output_tokens', paired, alpha);

  const sameSide = baseline.run_id === candidate.run_id && baseline.model === candidate.model;
  const notes: string[] = [];
  if (sameSide) notes.push('baseline and candidate are the same model of the same run');
  const left = exclusionClauses(excluded, baseline, candidate);
  if (left.length > 0) notes.push(`left out of the paired test: ${left.join('; ')}`);
  const judges = judgeNote(paired);
  if (judges !== null) notes.push(judges);
  if (speed.note !== null) notes.push(speed.note);

  const gate = evaluateGate({ ability, speed, cost, tokens }, input.gate ?? DEFAULT_GATE, thresholds, alpha);
  return { schema_version: COMPARISON_SCHEMA_VERSION, baseline, candidate, same_side: sameSide, ability, speed, cost, tokens, notes, gate };
}

/** `compare --json`: the whole `Comparison` (it carries `schema_version`), pretty-printed, with a final newline. */
export function renderComparisonJson(c: Comparison): string {
  return `${JSON.stringify(c, null, 2)}\n`;
}
