import { CORE_ERRORS, tableError, type CrucibleError } from './errors';

/** z for a two-sided 95 % interval. */
export const Z_95 = 1.959963984540054;

const finite = (values: readonly (number | null | undefined)[]): number[] =>
  values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));

/** Linear-interpolated percentile (numpy's default) of an ascending array; null when empty. */
export function percentileSorted(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (b - a) * (rank - lo);
}

/** Linear-interpolated percentile of the finite numbers in `values` (nulls skipped); null when none. */
export function percentile(values: readonly (number | null | undefined)[], p: number): number | null {
  return percentileSorted(finite(values).sort((x, y) => x - y), p);
}

/** Median of the finite numbers in `values` (the mean of the middle two for an even count), or null. */
export function median(values: readonly (number | null | undefined)[]): number | null {
  return percentile(values, 50);
}

function invalid(message: string, details: Record<string, unknown>): CrucibleError {
  return tableError(CORE_ERRORS, 'STATS_INVALID_ARGUMENT', message, { details });
}

/**
 * Wilson score interval for `successes` out of `n` trials, as `[low, high]` in 0..1 (`z` defaults to the
 * two-sided 95 % quantile). Successes may be fractional (a tie counts as half a win); `n` is a whole
 * number. With n = 0 nothing is known and the interval is `[0, 1]`; 0 successes give exactly 0 low, n
 * exactly 1 high. Throws STATS_INVALID_ARGUMENT for counts that make no sense.
 */
export function wilsonInterval(successes: number, n: number, z: number = Z_95): [number, number] {
  if (!Number.isInteger(n) || n < 0) throw invalid(`n must be a non-negative integer, got ${String(n)}`, { n });
  if (!Number.isFinite(successes) || successes < 0) throw invalid(`successes must be a non-negative number, got ${String(successes)}`, { successes });
  if (successes > n) throw invalid(`successes (${successes}) must not exceed n (${n})`, { successes, n });
  if (!(z > 0) || !Number.isFinite(z)) throw invalid(`z must be a positive finite number, got ${String(z)}`, { z });
  if (n === 0) return [0, 1];
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  const low = successes === 0 ? 0 : Math.max(0, centre - half);
  const high = successes === n ? 1 : Math.min(1, centre + half);
  return [low, high];
}
