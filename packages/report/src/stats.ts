import { ReportError } from './errors';

/** z for a two-sided 95 % interval. */
export const Z_95 = 1.959963984540054;

function assertCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new ReportError('REPORT_INVALID_ARGUMENT', `${name} must be a non-negative integer, got ${String(value)}`, {
      [name]: value,
    });
  }
}

/**
 * Wilson score interval for k successes out of n trials, as `[low, high]` in 0..1.
 * `z` defaults to the two-sided 95 % quantile. With n = 0 nothing is known and the interval is `[0, 1]`.
 */
export function wilsonInterval(k: number, n: number, z: number = Z_95): [number, number] {
  assertCount('k', k);
  assertCount('n', n);
  if (k > n) throw new ReportError('REPORT_INVALID_ARGUMENT', `k (${k}) must not exceed n (${n})`, { k, n });
  if (!(z > 0) || !Number.isFinite(z)) {
    throw new ReportError('REPORT_INVALID_ARGUMENT', `z must be a positive finite number, got ${String(z)}`, { z });
  }
  if (n === 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // Clamp the float noise at the edges: k = 0 gives exactly 0, k = n exactly 1.
  const low = k === 0 ? 0 : Math.max(0, centre - half);
  const high = k === n ? 1 : Math.min(1, centre + half);
  return [low, high];
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

/** Median of the finite numbers in `values`, or null when there are none. */
export function median(values: readonly (number | null | undefined)[]): number | null {
  const finite = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)).sort((x, y) => x - y);
  if (finite.length === 0) return null;
  const mid = Math.floor(finite.length / 2);
  if (finite.length % 2 === 1) return finite[mid] ?? null;
  return ((finite[mid - 1] ?? 0) + (finite[mid] ?? 0)) / 2;
}

/**
 * Holm's step-down adjustment of p-values for testing several hypotheses at once (here: one per category),
 * keeping the chance of any false "worse" at α. The i-th smallest p becomes max over j ≤ i of (m − j + 1)·p_(j),
 * capped at 1. Returns the adjusted values in the input order.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  for (const [i, p] of pValues.entries()) {
    if (!(p >= 0 && p <= 1)) throw new ReportError('REPORT_INVALID_ARGUMENT', `p-value ${i} must be in 0..1, got ${String(p)}`, { index: i, p });
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
