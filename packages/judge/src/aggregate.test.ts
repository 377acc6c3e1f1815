import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '@crucibleforge/core';
import { aggregatePairwise, bradleyTerry, eloFromStrength, type PairwiseGame } from './aggregate';

const games = (a: string, b: string, results: string): PairwiseGame[] =>
  [...results].map((r) => ({ a, b, result: r === 'A' ? 'A' : r === 'B' ? 'B' : r === 'T' ? 'tie' : 'judge-error' }));

describe('bradleyTerry', () => {
  it('two models: strength ratio is the ratio of (half-)wins including the prior', () => {
    // a beat b 3 times and lost once; the prior adds one virtual tie: 3.5 vs 1.5
    const [pa, pb] = bradleyTerry([
      [0, 3],
      [1, 0],
    ]);
    expect(pa! / pb!).toBeCloseTo(3.5 / 1.5, 9);
    expect(eloFromStrength(pa!)).toBeCloseTo(1000 + 200 * Math.log10(7 / 3), 6); // 1073.595
  });

  it('matches an independent maximum-likelihood fit on a 4-model matrix, and stays finite for a winless model', () => {
    // wins[i][j], ties counted as half-wins; d only played (and lost to) c
    const wins = [
      [0, 7, 5, 0],
      [3, 0, 5, 0],
      [5, 4, 0, 3],
      [0, 0, 0, 0],
    ];
    const ratings = bradleyTerry(wins).map(eloFromStrength);
    // reference values from scipy BFGS on the same log-likelihood (prior: one virtual tie per pair)
    const expected = [1084.2113, 1010.2038, 1048.8114, 856.7735];
    ratings.forEach((r, i) => expect(r).toBeCloseTo(expected[i]!, 3));
    expect(ratings.reduce((s, r) => s + r, 0) / 4).toBeCloseTo(1000, 9);
  });

  it('a rock-paper-scissors cycle rates everyone 1000', () => {
    const ratings = bradleyTerry([
      [0, 4, 0],
      [0, 0, 4],
      [4, 0, 0],
    ]).map(eloFromStrength);
    ratings.forEach((r) => expect(r).toBeCloseTo(1000, 9));
  });

  it('a stronger prior pulls ratings toward 1000', () => {
    const m = [
      [0, 5],
      [0, 0],
    ];
    const weak = eloFromStrength(bradleyTerry(m, 1)[0]!);
    const strong = eloFromStrength(bradleyTerry(m, 10)[0]!);
    expect(weak).toBeGreaterThan(strong);
    expect(strong).toBeGreaterThan(1000);
    expect(Number.isFinite(weak)).toBe(true);
  });
});

describe('aggregatePairwise', () => {
  it('counts win/tie/loss from a’s side whatever order the games were given in, and skips judge errors', () => {
    const outcomes = [...games('m1', 'm2', 'AAATBE'), ...games('m2', 'm1', 'AB'), ...games('m2', 'm3', 'AAAA')];
    outcomes[3] = { ...outcomes[3]!, position_bias: true };
    const judge = { model: 'j', endpoint: 'e', prompt_version: 'pairwise/1' };
    const summary = aggregatePairwise(outcomes, ['m1', 'm2', 'm3'], { judge });
    expect(summary.models).toEqual(['m1', 'm2', 'm3']);
    expect(summary.judge).toBe(judge);
    expect(summary.pairs).toHaveLength(2); // m1 and m3 never met
    expect([summary.games, summary.judge_errors, summary.position_bias_ties]).toEqual([11, 1, 1]);
    const [p12, p23] = summary.pairs;
    expect(p12).toMatchObject({ a: 'm1', b: 'm2', wins: 4, ties: 1, losses: 2 });
    expect(p12!.win_rate).toBeCloseTo(4.5 / 7, 12);
    expect(p12!.ci95).toEqual(wilsonInterval(4.5, 7));
    expect(p23).toMatchObject({ a: 'm2', b: 'm3', wins: 4, ties: 0, losses: 0, win_rate: 1 });
    expect(p23!.ci95[1]).toBe(1);

    // Ratings equal a direct BT fit of the same matrix, highest first.
    const strengths = bradleyTerry([
      [0, 4.5, 0],
      [2.5, 0, 4],
      [0, 0, 0],
    ]).map(eloFromStrength);
    expect(summary.ratings.map((r) => r.model)).toEqual(['m1', 'm2', 'm3']); // m1 beat m2, m2 beat m3
    expect(summary.ratings.find((r) => r.model === 'm1')!.rating).toBeCloseTo(strengths[0]!, 9);
    expect(summary.ratings.find((r) => r.model === 'm3')!.rating).toBeCloseTo(strengths[2]!, 9);
  });

  it('rejects games with unknown models, self-play, duplicates and bad results', () => {
    expect(() => aggregatePairwise(games('m1', 'x', 'A'), ['m1', 'm2'])).toThrow(/outcomes\[0\]\.b: model x is not in models/);
    expect(() => aggregatePairwise(games('m1', 'm1', 'A'), ['m1', 'm2'])).toThrow(/cannot play itself/);
    expect(() => aggregatePairwise([], ['m1', 'm1'])).toThrow(/duplicate model m1/);
    expect(() => aggregatePairwise([{ a: 'm1', b: 'm2', result: 'X' as 'A' }], ['m1', 'm2'])).toThrow(/expected A, B, tie or judge-error/);
  });

  it('with no games every model is rated 1000', () => {
    const summary = aggregatePairwise([], ['a', 'b']);
    expect(summary.pairs).toEqual([]);
    expect(summary.ratings.map((r) => r.rating)).toEqual([1000, 1000]);
    expect(summary.judge).toBeNull();
  });
});
