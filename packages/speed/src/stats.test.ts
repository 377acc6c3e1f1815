import { describe, expect, it } from 'vitest';
import { summarize } from './stats';

describe('summarize', () => {
  it('gives n, mean, median, p90, min, max and skips nulls', () => {
    expect(summarize([4, null, 1, 3, 2, undefined])).toEqual({ n: 4, mean: 2.5, median: 2.5, p90: 3.7, min: 1, max: 4 });
  });
  it('returns nulls for no values', () => {
    expect(summarize([null])).toEqual({ n: 0, mean: null, median: null, p90: null, min: null, max: null });
  });
});
