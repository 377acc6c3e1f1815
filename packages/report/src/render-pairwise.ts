import type { PairwiseSummary } from '@crucibleforge/core';

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** pairwise.md: the win/tie/loss table with 95 % intervals, and the Bradley–Terry ratings. */
export function renderPairwiseMarkdown(s: PairwiseSummary): string {
  const lines = [
    '# Pairwise comparison',
    '',
    `Judge: ${s.judge ? `${s.judge.model} (${s.judge.endpoint}, prompt ${s.judge.prompt_version})` : 'unknown'}. ` +
      `Each prompt judged in both orders; orders that disagree count as a tie. ${s.games ?? 0} games, ${s.judge_errors ?? 0} judge errors, ${s.position_bias_ties ?? 0} position-bias ties.`,
    '',
    '| A | B | wins | ties | losses | A win rate | 95% interval |',
    '|---|---|---:|---:|---:|---:|---|',
    ...s.pairs.map((p) => `| ${p.a} | ${p.b} | ${p.wins} | ${p.ties} | ${p.losses} | ${pct(p.win_rate)} | ${pct(p.ci95[0])}–${pct(p.ci95[1])} |`),
    '',
    '| Model | Rating |',
    '|---|---:|',
    ...[...s.ratings].sort((x, y) => y.rating - x.rating).map((r) => `| ${r.model} | ${Math.round(r.rating)} |`),
    '',
  ];
  return lines.join('\n');
}
