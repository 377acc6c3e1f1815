import { describe, expect, it } from 'vitest';
import { CrucibleError, median, percentile, wilsonInterval } from './index';

describe('median and percentile', () => {
  it('skip nulls and non-finite values; null when nothing is left', () => {
    expect(median([4, null, 1, 3, 2, undefined, Number.NaN])).toBe(2.5);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([])).toBeNull();
  });
  it('interpolate linearly', () => {
    expect(percentile([10, 20, 30, 40, 50], 50)).toBe(30);
    expect(percentile([10, 20], 90)).toBe(19);
    expect(percentile([5], 99)).toBe(5);
  });
});

describe('wilsonInterval', () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
    [5, 10, 0.2366, 0.7634],
  ])('%i/%i → [%f, %f] as published', (k, n, low, high) => {
    const [l, h] = wilsonInterval(k, n);
    expect(l).toBeCloseTo(low, 4);
    expect(h).toBeCloseTo(high, 4);
  });

  it('is exactly 0 at k = 0 and exactly 1 at k = n, and [0, 1] with no trials', () => {
    expect(wilsonInterval(0, 7)[0]).toBe(0);
    expect(wilsonInterval(7, 7)[1]).toBe(1);
    expect(wilsonInterval(7, 7)[0]).toBeCloseTo(0.6457, 4);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });

  it('takes half successes (a tie is half a win) and narrows with a smaller z', () => {
    const [l, h] = wilsonInterval(1.5, 3);
    expect(l + h).toBeCloseTo(1, 10);
    const [l95, h95] = wilsonInterval(30, 60);
    const [l90, h90] = wilsonInterval(30, 60, 1.6448536269514722);
    expect(h90 - l90).toBeLessThan(h95 - l95);
  });

  it('rejects counts that make no sense, with a typed error', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(/successes \(3\) must not exceed n \(2\)/);
    expect(() => wilsonInterval(-1, 2)).toThrow(/successes must be a non-negative number/);
    expect(() => wilsonInterval(1, 2.5)).toThrow(/n must be a non-negative integer/);
    expect(() => wilsonInterval(1, 2, 0)).toThrow(/z must be/);
    let caught: unknown;
    try {
      wilsonInterval(1, Number.NaN);
    } catch (error) {
      caught = error;
    }
    expect(CrucibleError.isInstance(caught) && caught.code).toBe('STATS_INVALID_ARGUMENT');
  });
});
