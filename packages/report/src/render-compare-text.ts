import * as fmt from './compare-format';
import type { AbilityCell, Comparison, FlippedCase, SpeedMetricComparison, UsageComparison } from './compare-types';

const VERDICT_WIDTH = Math.max(...Object.values(fmt.VERDICT_TEXT).map((v) => v.length));

function row(label: string, verdict: string, ...rest: string[]): string {
  return [`  ${label.padEnd(14)}`, verdict.padEnd(VERDICT_WIDTH), ...rest].join('  ').trimEnd();
}

function abilityLine(cell: AbilityCell, label: string): string {
  return row(label, fmt.VERDICT_TEXT[cell.verdict], fmt.rateChangeText(cell), `${cell.cases} cases`, fmt.flipsText(cell));
}

function speedLine(m: SpeedMetricComparison): string {
  const side = (s: SpeedMetricComparison['baseline']) => fmt.speedSideText(m.metric, s);
  const tail = m.verdict === 'unknown' ? m.note : `${fmt.ratioText(m.ratio)} (${fmt.slowdownText(m.slowdown)}, noise ${fmt.noiseText(m.noise)})`;
  return row(fmt.SPEED_LABEL[m.metric], fmt.VERDICT_TEXT[m.verdict], `${side(m.baseline)} → ${side(m.candidate)}`, tail);
}

function usageLine(label: string, u: UsageComparison, value: (v: number | null) => string): string {
  if (u.verdict === 'unknown') return row(label, fmt.VERDICT_TEXT.unknown, u.note);
  return row(
    label,
    fmt.VERDICT_TEXT[u.verdict],
    `${value(u.baseline_per_case)} → ${value(u.candidate_per_case)} (${fmt.signedPercent(u.increase)})`,
    fmt.signTestText(u),
  );
}

function flippedLines(title: string, list: readonly FlippedCase[]): string[] {
  if (list.length === 0) return [`${title}: none`];
  return [`${title} (${list.length}):`, ...list.map((f) => `  ${f.case_id} [${f.category}, ${f.difficulty}]  ${fmt.shortReason(f.reason)}`)];
}

/** The terminal summary of a comparison: verdicts per metric, flipped cases, notes and the gate. */
export function renderComparisonText(c: Comparison): string {
  const a = c.ability;
  const regressions = a.flipped.filter((f) => f.direction === 'regression');
  const improvements = a.flipped.filter((f) => f.direction === 'improvement');
  const lines = [
    `baseline   ${c.baseline.label}${c.baseline.model_id && c.baseline.model_id !== c.baseline.model ? ` (${c.baseline.model_id})` : ''}`,
    `candidate  ${c.candidate.label}${c.candidate.model_id && c.candidate.model_id !== c.candidate.model ? ` (${c.candidate.model_id})` : ''}`,
    `${a.overall.cases} paired cases (graded on both sides at the same revision and seed) · ${fmt.verdictSummary(c)}`,
    '',
    'ability (exact McNemar on the paired cases; categories Holm-adjusted)',
    abilityLine(a.overall, 'all'),
    ...a.categories.map((cell) => abilityLine(cell, cell.scope)),
    '',
    'speed (medians of the speed run ± the spread of its repeated rounds)',
    ...c.speed.metrics.map(speedLine),
    '',
    'per case (the paired cases where both sides report it)',
    usageLine('cost', c.cost, fmt.usdText),
    usageLine('output tokens', c.tokens, fmt.tokensText),
    '',
    ...flippedLines('flipped pass → fail', regressions),
    ...flippedLines('flipped fail → pass', improvements),
  ];
  if (c.notes.length > 0) lines.push('', 'notes:', ...c.notes.map((n) => `  - ${n}`));
  const g = c.gate;
  lines.push('', `gate ${fmt.gateHeading(c)}: ${g.failed ? 'FAILED' : g.metrics.length === 0 ? 'not applied' : 'passed'}`);
  for (const check of g.checks) lines.push(`  ${check.failed ? 'FAIL' : check.measured ? 'ok  ' : 'n/a '}  ${fmt.GATE_LABEL[check.metric]}: ${check.reason}`);
  return `${lines.join('\n')}\n`;
}
