import { ReportError } from './errors';

function assertCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new ReportError('REPORT_INVALID_ARGUMENT', `${name} must be a non-negative integer, got ${String(value)}`, { details: { [name]: value } });
  }
}

/**
 * Exact McNemar test: the two-sided binomial test (p = ½) on the discordant pairs of a paired comparison.
 * `b` = pairs where only the first model passed, `c` = pairs where only the second passed.
 * Returns the p-value in 0..1 (1 when there are no discordant pairs).
 */
export function mcnemarExact(b: number, c: number): number {
  assertCount('b', b);
  assertCount('c', c);
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  if (b === c) return 1;
  if (n <= 1000) {
    // Direct sum of binomial probabilities: exact in doubles for the small counts reports usually have.
    let term = 0.5 ** n;
    let sum = 0;
    for (let i = 0; i <= k; i += 1) {
      sum += term;
      term = (term * (n - i)) / (i + 1);
    }
    return Math.min(1, 2 * sum);
  }
  // Large n: sum C(n, i) / 2^n in log space so it neither overflows nor underflows.
  let logTerm = -n * Math.LN2; // log(C(n, 0) / 2^n)
  let logSum = Number.NEGATIVE_INFINITY;
  for (let i = 0; i <= k; i += 1) {
    logSum = logAdd(logSum, logTerm);
    logTerm += Math.log(n - i) - Math.log(i + 1);
  }
  return Math.min(1, 2 * Math.exp(logSum));
}

function logAdd(a: number, b: number): number {
  if (a === Number.NEGATIVE_INFINITY) return b;
  const hi = Math.max(a, b);
  return hi + Math.log(Math.exp(a - hi) + Math.exp(b - hi));
}

/**
 * Holm's step-down adjustment of p-values for testing several hypotheses at once (here: one per category),
 * keeping the chance of any false "worse" at α. The i-th smallest p becomes max over j ≤ i of (m − j + 1)·p_(j),
 * capped at 1. Returns the adjusted values in the input order.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  for (const [i, p] of pValues.entries()) {
    if (!(p >= 0 && p <= 1)) throw new ReportError('REPORT_INVALID_ARGUMENT', `p-value ${i} must be in 0..1, got ${String(p)}`, { details: { index: i, p } });
  }
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}
