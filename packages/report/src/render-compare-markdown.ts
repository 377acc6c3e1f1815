import * as fmt from './compare-format';
import type { AbilityCell, Comparison, FlippedCase, SpeedMetricComparison, UsageComparison, Verdict } from './compare-types';
import { mdText, table } from './render-markdown';

const verdictCell = (v: Verdict): string => (v === 'worse' || v === 'better' ? `**${fmt.VERDICT_TEXT[v]}**` : fmt.VERDICT_TEXT[v]);

function abilityRow(cell: AbilityCell, label: string): string[] {
  return [
    label,
    `${fmt.rateText(cell.baseline_rate)} (${cell.baseline_passes}/${cell.cases})`,
    `${fmt.rateText(cell.candidate_rate)} (${cell.candidate_passes}/${cell.cases})`,
    fmt.ppText(cell.delta_pp),
    fmt.flipsText(cell),
    verdictCell(cell.verdict),
  ];
}

function speedRow(m: SpeedMetricComparison): string[] {
  const side = (s: SpeedMetricComparison['baseline']) => fmt.speedSideText(m.metric, s);
  const test = m.verdict === 'unknown' ? m.note : `${fmt.slowdownText(m.slowdown)}, noise ${fmt.noiseText(m.noise)}`;
  return [`Speed: ${fmt.SPEED_LABEL[m.metric]}`, side(m.baseline), side(m.candidate), fmt.ratioText(m.ratio), test, verdictCell(m.verdict)];
}

function usageRow(label: string, u: UsageComparison, value: (v: number | null) => string): string[] {
  const test = u.verdict === 'unknown' ? u.note : fmt.signTestText(u);
  return [label, value(u.baseline_per_case), value(u.candidate_per_case), fmt.signedPercent(u.increase), test, verdictCell(u.verdict)];
}

function flippedTable(list: readonly FlippedCase[]): string {
  return table(
    ['Case', 'Category', 'Flip', 'Reason (failing side)'],
    ['l', 'l', 'l', 'l'],
    list.map((f) => [f.case_id, `${f.category} · ${f.difficulty}`, f.direction === 'regression' ? 'pass → fail' : 'fail → pass', fmt.shortReason(f.reason)]),
  );
}

/**
 * A Markdown block fit for a pull-request comment: the headline and gate result, one table of every metric,
 * the flipped cases (folded), notes. Model and grader text is escaped.
 */
export function renderComparisonMarkdown(c: Comparison): string {
  const a = c.ability;
  const g = c.gate;
  const status = g.failed ? '❌ gate failed' : g.metrics.length === 0 ? 'no gate' : '✅ gate passed';
  const regressions = a.flipped.filter((f) => f.direction === 'regression').length;
  const improvements = a.flipped.length - regressions;
  const lines = [
    `### CrucibleForge compare: ${status} — ${mdText(fmt.verdictSummary(c))}`,
    '',
    `**Baseline** ${mdText(c.baseline.label)} → **candidate** ${mdText(c.candidate.label)} · ${a.overall.cases} paired cases (same revision and seed)`,
    '',
    table(
      ['Metric', 'Baseline', 'Candidate', 'Change', 'Test', 'Verdict'],
      ['l', 'r', 'r', 'r', 'l', 'l'],
      [
        abilityRow(a.overall, 'Ability: all'),
        ...a.categories.map((cell) => abilityRow(cell, `Ability: ${cell.scope}`)),
        ...c.speed.metrics.map(speedRow),
        usageRow('Cost per case', c.cost, fmt.usdText),
        usageRow('Output tokens per case', c.tokens, fmt.tokensText),
      ],
    ),
    '',
  ];
  if (a.flipped.length > 0) {
    lines.push(`<details><summary>Flipped cases: ${regressions} pass → fail, ${improvements} fail → pass</summary>`, '', flippedTable(a.flipped), '', '</details>', '');
  } else {
    lines.push('No case flipped.', '');
  }
  lines.push(`**Gate** ${mdText(fmt.gateHeading(c))}: ${g.failed ? '**failed**' : g.metrics.length === 0 ? 'not applied' : 'passed'}`, '');
  for (const check of g.checks) lines.push(`- ${check.failed ? '❌' : check.measured ? '✅' : '➖'} ${fmt.GATE_LABEL[check.metric]}: ${mdText(check.reason)}`);
  if (c.notes.length > 0) lines.push('', ...c.notes.map((n) => `> ${mdText(n)}`));
  lines.push(
    '',
    '<sub>Ability: exact two-sided McNemar test on the cases only one side passed (categories Holm-adjusted). ' +
      'Speed: a change counts when |ln ratio| exceeds the sum of both runs’ round spreads. Per case: exact sign test.</sub>',
  );
  return `${lines.join('\n')}\n`;
}
