import { describe, expect, it } from 'vitest';
import { mcnemarExact } from './stats';

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
