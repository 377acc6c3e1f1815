import { describe, expect, it } from 'vitest';
import { PAIRWISE } from './__fixtures__/results';
import { renderPairwiseMarkdown } from './render-pairwise';

describe('renderPairwiseMarkdown', () => {
  it('writes the win/tie/loss table with intervals and the ratings, best first', () => {
    const md = renderPairwiseMarkdown({ ...PAIRWISE, games: 12, judge_errors: 1, position_bias_ties: 2 });
    expect(md).toMatch(/^# Pairwise comparison\n/);
    expect(md).toContain('12 games, 1 judge errors, 2 position-bias ties');
    const pair = PAIRWISE.pairs[0]!;
    expect(md).toContain(`| ${pair.a} | ${pair.b} | ${pair.wins} | ${pair.ties} | ${pair.losses} |`);
    const ratings = md.split('| Model | Rating |')[1]!.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('|---'));
    const values = ratings.map((l) => Number(l.split('|')[2]));
    expect([...values].sort((a, b) => b - a)).toEqual(values);
  });
});
