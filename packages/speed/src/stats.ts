import { percentileSorted } from '@crucibleforge/core';

/** n, mean, median, p90, min, max of the numbers present (nulls are skipped); all null when none. */
export interface MetricStats {
  n: number;
  mean: number | null;
  median: number | null;
  p90: number | null;
  min: number | null;
  max: number | null;
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
