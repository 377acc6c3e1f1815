/** n, mean, median, p90, min, max of the numbers present (nulls are skipped); all null when none. */
export interface MetricStats {
  n: number;
  mean: number | null;
  median: number | null;
  p90: number | null;
  min: number | null;
  max: number | null;
}

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

export function percentile(values: readonly number[], p: number): number | null {
  return percentileSorted([...values].sort((x, y) => x - y), p);
}

export function median(values: readonly (number | null | undefined)[]): number | null {
  return percentile(present(values), 50);
}

function present(values: readonly (number | null | undefined)[]): number[] {
  return values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

export function summarize(values: readonly (number | null | undefined)[]): MetricStats {
  const xs = present(values).sort((a, b) => a - b);
  if (xs.length === 0) return { n: 0, mean: null, median: null, p90: null, min: null, max: null };
  const mean = xs.reduce((sum, x) => sum + x, 0) / xs.length;
  return {
    n: xs.length,
    mean,
    median: percentileSorted(xs, 50),
    p90: percentileSorted(xs, 90),
    min: xs[0]!,
    max: xs[xs.length - 1]!,
  };
}
