import { CrucibleError } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { mcnemarExact, median, wilsonInterval } from './stats';

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

  it('narrows with a smaller z', () => {
    const [l95, h95] = wilsonInterval(30, 60);
    const [l90, h90] = wilsonInterval(30, 60, 1.6448536269514722);
    expect(h90 - l90).toBeLessThan(h95 - l95);
    expect(l90 + h90).toBeCloseTo(1, 10); // symmetric around ½ at k = n/2
  });

  it('rejects counts that are not non-negative integers, and k > n', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(/k \(3\) must not exceed n \(2\)/);
    expect(() => wilsonInterval(-1, 2)).toThrow(/k must be a non-negative integer/);
    expect(() => wilsonInterval(1.5, 2)).toThrow(/k must be/);
    expect(() => wilsonInterval(1, 2, 0)).toThrow(/z must be/);
    let caught: unknown;
    try {
      wilsonInterval(1, Number.NaN);
    } catch (error) {
      caught = error;
    }
    expect(CrucibleError.isInstance(caught) && caught.code).toBe('REPORT_INVALID_ARGUMENT');
  });
});

describe('mcnemarExact', () => {
  // Two-sided exact binomial on the discordant pairs: 2 · Σ_{i ≤ min(b,c)} C(b+c, i) / 2^(b+c), capped at 1.
  it.each([
    [0, 6, 0.03125],
    [6, 0, 0.03125],
    [1, 9, 0.021484375],
    [2, 8, 0.109375],
    [10, 0, 0.001953125],
    [3, 0, 0.25],
    [5, 5, 1],
    [0, 0, 1],
    [0, 1, 1],
  ])('b=%i c=%i → p=%f', (b, c, p) => {
    expect(mcnemarExact(b, c)).toBeCloseTo(p, 12);
  });

  it('stays exact for large counts (computed in log space)', () => {
    // Reference values from exact big-integer arithmetic.
    expect(mcnemarExact(100, 130)).toBeCloseTo(0.055613577781392386, 10);
    expect(mcnemarExact(1000, 1100)).toBeCloseTo(0.030720707864242296, 10);
    // Either side of the switch from the direct sum (n ≤ 1000) to log space.
    expect(mcnemarExact(450, 550)).toBeCloseTo(0.0017305360849763176, 12);
    expect(mcnemarExact(451, 550)).toBeCloseTo(0.0019371180914118246, 12);
    expect(mcnemarExact(0, 5000)).toBe(0);
    expect(mcnemarExact(5000, 5000)).toBe(1);
  });

  it('rejects bad counts', () => {
    expect(() => mcnemarExact(-1, 3)).toThrow(/b must be a non-negative integer/);
    expect(() => mcnemarExact(1, 2.5)).toThrow(/c must be/);
  });
});

describe('median', () => {
  it('ignores nulls and takes the middle (mean of the two middles when even)', () => {
    expect(median([3, null, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([null, undefined])).toBeNull();
  });
});
