import type { ResultRow } from '@crucibleforge/core';
import { pairedVerdict, type PairedCase } from './compare-ability';
import type { UsageComparison } from './compare-types';
import { rowCost } from './rates';
import { mcnemarExact } from './stats';

const outputTokens = (row: ResultRow): number | null => {
  const n = row.usage?.completion_tokens;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null;
};

const METRICS = {
  cost_usd: { value: rowCost, missing: 'no paired case has a cost on both sides (not priced)' },
  output_tokens: { value: outputTokens, missing: 'no paired case has an output token count on both sides (the endpoint reported no usage)' },
} as const;

/**
 * Cost or output tokens per case over the paired cases where both sides have the figure, with an exact
 * two-sided sign test (binomial ½ on the cases where the candidate's figure is higher vs lower; ties left out).
 */
export function compareUsage(metric: UsageComparison['metric'], paired: readonly PairedCase[], alpha: number): UsageComparison {
  const { value, missing } = METRICS[metric];
  let cases = 0;
  let base = 0;
  let cand = 0;
  let higher = 0;
  let lower = 0;
  for (const p of paired) {
    const b = value(p.baseline);
    const c = value(p.candidate);
    if (b === null || c === null) continue;
    cases += 1;
    base += b;
    cand += c;
    if (c > b) higher += 1;
    else if (c < b) lower += 1;
  }
  if (cases === 0) {
    return { metric, cases, baseline_per_case: null, candidate_per_case: null, ratio: null, increase: null, higher, lower, p_value: null, verdict: 'unknown', note: missing };
  }
  const ratio = base > 0 ? cand / base : cand === 0 ? 1 : null;
  const p = mcnemarExact(higher, lower);
  return {
    metric,
    cases,
    baseline_per_case: base / cases,
    candidate_per_case: cand / cases,
    ratio,
    increase: ratio === null ? null : ratio - 1,
    higher,
    lower,
    p_value: p,
    // "worse" = the candidate costs more on significantly many cases.
    verdict: pairedVerdict(p, alpha, higher, lower),
    note: '',
  };
}
