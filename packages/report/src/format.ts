import type { JudgeIdentity } from '@crucibleforge/core';
import { judgeLabel } from './comparability';
import type { ModelSummary, RateCell, ReportData } from './types';

/** Shared number formatting so the three formats agree to the character. */

export function pct(rate: number | null): string {
  return rate === null ? '—' : `${Math.round(rate * 100)}%`;
}

/** `89% (54/61)`; `— (3 pending)` when nothing was graded yet. */
export function cellText(cell: RateCell | undefined): string {
  if (cell === undefined) return '—';
  if (cell.graded === 0) {
    const waiting = cell.pending + cell.judge_errors;
    return waiting > 0 ? `— (${waiting} ungraded)` : '—';
  }
  return `${pct(cell.rate)} (${cell.passes}/${cell.graded})`;
}

/** `79–95` (percent, no sign), or `—`. */
export function ciText(cell: RateCell | undefined): string {
  if (cell?.ci95 == null) return '—';
  const [low, high] = cell.ci95;
  return `${Math.round(low * 100)}–${Math.round(high * 100)}`;
}

export function tpsText(value: number | null | undefined): string {
  return value == null ? '—' : value.toFixed(1);
}

export function secondsText(value: number | null | undefined): string {
  if (value == null) return '—';
  return value < 10 ? `${value.toFixed(2)} s` : `${value.toFixed(1)} s`;
}

export function costText(value: number | null): string {
  if (value === null) return '—';
  if (value === 0) return '$0';
  return value < 0.01 ? `$${value.toPrecision(2)}` : `$${value.toFixed(2)}`;
}

export function overflowText(o: ModelSummary['overflow']): string {
  return o.total === 0 ? '0' : `${o.total} (${o.recovered} recovered / ${o.unrecovered} not)`;
}

export function judgesText(judges: readonly JudgeIdentity[]): string {
  if (judges.length === 0) return '—';
  if (judges.length === 1 && judges[0] !== undefined) return judgeLabel(judges[0]);
  return `mixed: ${judges.map(judgeLabel).join('; ')}`;
}

export function speedSourceNote(m: ModelSummary): string {
  return m.speed?.source === 'bench-rows' ? ' *' : '';
}

/** `graders/2`, or `graders/2 (50 rows), graders/1 (6 rows)` when the rows were graded by several versions. */
export function gradersText(data: ReportData): string {
  const counts = new Map<string, number>();
  for (const m of data.models) for (const g of m.grader_versions) counts.set(g.version, (counts.get(g.version) ?? 0) + g.rows);
  if (counts.size === 0) return '';
  if (counts.size === 1) return [...counts.keys()][0]!;
  return [...counts].sort((a, b) => b[1] - a[1]).map(([v, n]) => `${v} (${n} rows)`).join(', ');
}

/** `Generated … · tool … · N models · M cases · runs … · judged by … · graded by …` */
export function headerLine(data: ReportData): string {
  const parts = [
    `Generated ${data.generated_at}`,
    `crucibleforge ${data.tool_version}`,
    `${data.models.length} model${data.models.length === 1 ? '' : 's'}`,
    `${data.counts.cases} case${data.counts.cases === 1 ? '' : 's'}`,
  ];
  if (data.runs.length > 0) parts.push(`run${data.runs.length === 1 ? '' : 's'} ${data.runs.map((r) => r.run_id).join(', ')}`);
  const judge = [...data.runs].reverse().find((r) => r.judge !== null)?.judge;
  if (judge) parts.push(`judged by ${judgeLabel(judge)}`);
  const graders = gradersText(data);
  if (graders) parts.push(`graded by ${graders}`);
  return parts.join(' · ');
}

/** The columns after the category cells, shared by Markdown and HTML. */
export const TAIL_COLUMNS = ['Hard', 'Pending', 'Skipped', 'Errors', 'Judge errors', 'Decode T/s', 'TTFT', 'Cost', 'Overflows', 'Judge'] as const;

export function tailCells(m: ModelSummary): string[] {
  const mark = speedSourceNote(m);
  return [
    cellText(m.hard),
    String(m.overall.pending),
    String(m.overall.skipped),
    String(m.overall.errors),
    String(m.overall.judge_errors),
    m.speed?.decode_tps == null ? '—' : `${tpsText(m.speed.decode_tps)}${mark}`,
    m.speed?.ttft_s == null ? '—' : `${secondsText(m.speed.ttft_s)}${mark}`,
    costText(m.cost_usd),
    overflowText(m.overflow),
    judgesText(m.judges),
  ];
}

export const RATE_FOOTNOTE =
  'Rates are passes / graded, where graded = pass + fail. Pending (awaiting the judge), skipped (e.g. context too ' +
  'small), errored and judge-errored rows are shown but not in the denominator. The latest attempt per model and ' +
  'case counts.';

export const SPEED_FOOTNOTE =
  'Decode T/s and TTFT are medians of the speed run; * marks medians of the bench rows instead (no speed run).';

export const PAIRED_FOOTNOTE =
  'Exact McNemar test (two-sided binomial on the cases only one model passed), over the cases both models graded ' +
  'at the same revision. "Beats" is said only at p < 0.05.';
