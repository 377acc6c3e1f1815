import type { ResultRow } from '@crucibleforge/core';
import { orderCategories } from './build';
import type { AbilityCell, AbilityComparison, CompareSide, Exclusions, FlippedCase, Verdict } from './compare-types';
import { ReportError } from './errors';
import { rowOutcome } from './rates';
import { selectLatest } from './select';
import { holmAdjust, mcnemarExact } from './stats';

export type SideName = 'baseline' | 'candidate';

/** One case both sides graded (pass or fail) at the same revision and seed. */
export interface PairedCase {
  case_id: string;
  baseline: ResultRow;
  candidate: ResultRow;
}

/**
 * The counted rows of one side: the latest attempt per case (the reporter's `selectLatest`) of the side's
 * model. A malformed row or a model without rows throws, naming the side.
 */
export function sideRows(side: CompareSide, name: SideName): ResultRow[] {
  let latest: ResultRow[];
  try {
    latest = selectLatest(side.rows).rows;
  } catch (error) {
    if (!(error instanceof ReportError)) throw error;
    throw new ReportError(error.code, `${name} (run ${side.run_id}): ${error.message}`, { details: { ...error.details, side: name } });
  }
  const mine = latest.filter((r) => r.model === side.model);
  if (mine.length === 0) {
    const models = [...new Set(latest.map((r) => r.model))].sort();
    const has = models.length === 0 ? 'it has no rows yet' : `it has rows for ${models.join(', ')}`;
    throw new ReportError('REPORT_COMPARE_UNKNOWN_MODEL', `${name} ${side.run_id}:${side.model}: the run has no rows for model "${side.model}" (${has})`, { details: {
      side: name,
      run_id: side.run_id,
      model: side.model,
      models,
    } });
  }
  return mine;
}

function byCase(rows: readonly ResultRow[]): Map<string, ResultRow> {
  return new Map(rows.map((r) => [r.case_id, r]));
}

const graded = (row: ResultRow): boolean => {
  const outcome = rowOutcome(row);
  return outcome === 'pass' || outcome === 'fail';
};

/** Pairs the two sides' rows by case id; what cannot be paired goes to `excluded` with its reason. */
export function pairCases(baseline: readonly ResultRow[], candidate: readonly ResultRow[]): { paired: PairedCase[]; excluded: Exclusions } {
  const left = byCase(baseline);
  const right = byCase(candidate);
  const excluded: Exclusions = { baseline_only: [], candidate_only: [], revision: [], seed: [], ungraded: [] };
  const paired: PairedCase[] = [];
  const ids = [...new Set([...left.keys(), ...right.keys()])].sort();
  for (const case_id of ids) {
    const b = left.get(case_id);
    const c = right.get(case_id);
    if (c === undefined) excluded.baseline_only.push(case_id);
    else if (b === undefined) excluded.candidate_only.push(case_id);
    else if (b.case_revision !== c.case_revision) excluded.revision.push({ case_id, baseline: b.case_revision, candidate: c.case_revision });
    else if (b.seed !== c.seed) excluded.seed.push({ case_id, baseline: b.seed, candidate: c.seed });
    else if (!graded(b) || !graded(c)) excluded.ungraded.push({ case_id, baseline: rowOutcome(b), candidate: rowOutcome(c) });
    else paired.push({ case_id, baseline: b, candidate: c });
  }
  return { paired, excluded };
}

/** Better / worse when p < α (the direction of the larger discordant count), else no detectable change. */
export function pairedVerdict(p: number, alpha: number, regressions: number, improvements: number): Verdict {
  if (p >= alpha) return 'no-change';
  return regressions > improvements ? 'worse' : 'better';
}

function cell(scope: string, pairs: readonly PairedCase[]): AbilityCell {
  let baselinePasses = 0;
  let candidatePasses = 0;
  let regressions = 0;
  let improvements = 0;
  for (const p of pairs) {
    const b = p.baseline.grade.status === 'pass';
    const c = p.candidate.grade.status === 'pass';
    if (b) baselinePasses += 1;
    if (c) candidatePasses += 1;
    if (b && !c) regressions += 1;
    if (!b && c) improvements += 1;
  }
  const n = pairs.length;
  const p = mcnemarExact(regressions, improvements);
  return {
    scope,
    cases: n,
    baseline_passes: baselinePasses,
    candidate_passes: candidatePasses,
    baseline_rate: n === 0 ? null : baselinePasses / n,
    candidate_rate: n === 0 ? null : candidatePasses / n,
    delta_pp: n === 0 ? null : ((candidatePasses - baselinePasses) / n) * 100,
    regressions,
    improvements,
    p_value: p,
    p_adjusted: p,
    verdict: 'no-change',
  };
}

function flippedCases(pairs: readonly PairedCase[], categories: readonly string[]): FlippedCase[] {
  const out: FlippedCase[] = [];
  for (const p of pairs) {
    const b = p.baseline.grade.status === 'pass';
    const c = p.candidate.grade.status === 'pass';
    if (b === c) continue;
    const failed = b ? p.candidate : p.baseline;
    out.push({
      case_id: p.case_id,
      category: p.candidate.category,
      difficulty: p.candidate.difficulty,
      title: p.candidate.title ?? p.baseline.title ?? null,
      direction: b ? 'regression' : 'improvement',
      reason: failed.grade.reason,
    });
  }
  const rank = (f: FlippedCase) => categories.indexOf(f.category);
  return out.sort(
    (x, y) => Number(x.direction === 'improvement') - Number(y.direction === 'improvement') || rank(x) - rank(y) || x.case_id.localeCompare(y.case_id),
  );
}

/**
 * The paired ability comparison: exact McNemar overall and per category (category verdicts on Holm-adjusted
 * p-values, so testing nine categories does not multiply false alarms), and the flipped cases.
 */
export function compareAbility(paired: readonly PairedCase[], excluded: Exclusions, alpha: number): AbilityComparison {
  const overall = cell('overall', paired);
  overall.verdict = pairedVerdict(overall.p_value, alpha, overall.regressions, overall.improvements);
  const order = orderCategories(paired.map((p) => p.candidate.category));
  const categories = order.map((category) => cell(category, paired.filter((p) => p.candidate.category === category)));
  const adjusted = holmAdjust(categories.map((c) => c.p_value));
  categories.forEach((c, i) => {
    c.p_adjusted = adjusted[i] ?? c.p_value;
    c.verdict = pairedVerdict(c.p_adjusted, alpha, c.regressions, c.improvements);
  });
  return { overall, categories, flipped: flippedCases(paired, order), excluded };
}
