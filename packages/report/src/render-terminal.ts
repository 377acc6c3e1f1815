import { neutralizeControls } from '@crucibleforge/core';
import { cellText, costText, pct, secondsText, speedSourceNote, tpsText } from './format';
import type { ModelSummary, ReportData } from './types';

export interface TerminalSummaryOptions {
  /** Characters per line the summary must fit (default 80; at least the rank, model and overall columns are kept). */
  width?: number;
}

interface Column {
  header: string;
  align: 'l' | 'r';
  cell(m: ModelSummary): string;
}

const MODEL_MAX = 28;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The columns in the order they earn their place: identity and ability first, then speed, then the rest. */
function columns(data: ReportData): Column[] {
  const rate = (cell: ModelSummary['overall'] | undefined) => (cell === undefined || cell.graded === 0 ? '—' : pct(cell.rate));
  return [
    { header: '#', align: 'r', cell: (m) => String(m.rank) },
    { header: 'Model', align: 'l', cell: (m) => clip(neutralizeControls(m.comparable ? m.model : `${m.model} ⚠`), MODEL_MAX) },
    { header: 'All', align: 'r', cell: (m) => cellText(m.overall) },
    { header: 'Hard', align: 'r', cell: (m) => rate(m.hard) },
    { header: 'Decode T/s', align: 'r', cell: (m) => (m.speed?.decode_tps == null ? '—' : `${tpsText(m.speed.decode_tps)}${speedSourceNote(m)}`) },
    { header: 'TTFT', align: 'r', cell: (m) => (m.speed?.ttft_s == null ? '—' : `${secondsText(m.speed.ttft_s)}${speedSourceNote(m)}`) },
    ...data.categories.map((c): Column => ({ header: c, align: 'r', cell: (m) => rate(m.categories[c]) })),
    { header: 'Cost', align: 'r', cell: (m) => costText(m.cost_usd) },
    { header: 'Pending', align: 'r', cell: (m) => String(m.overall.pending) },
    { header: 'Errors', align: 'r', cell: (m) => String(m.overall.errors) },
    { header: 'Overflows', align: 'r', cell: (m) => String(m.overflow.total) },
  ];
}

/**
 * The leaderboard for a terminal: plain aligned columns (no Markdown), as many as fit `width`, in order of
 * importance (rank, model, overall, hard, speed, each category, cost, pending, errors, overflows). Model
 * names are made inert (control characters shown, not obeyed) and clipped. The full table is report.md's.
 */
export function renderTerminalSummary(data: ReportData, options: TerminalSummaryOptions = {}): string {
  const width = Math.max(20, Math.floor(options.width ?? 80));
  const gap = 2;
  const chosen: { column: Column; cells: string[]; size: number }[] = [];
  let used = 0;
  for (const [i, column] of columns(data).entries()) {
    const cells = data.models.map((m) => column.cell(m));
    const size = Math.max(column.header.length, ...cells.map((c) => c.length));
    const needed = (chosen.length === 0 ? 0 : gap) + size;
    if (i > 2 && used + needed > width) continue;
    chosen.push({ column, cells, size });
    used += needed;
  }
  const pad = (text: string, size: number, align: 'l' | 'r') => (align === 'r' ? text.padStart(size) : text.padEnd(size));
  const line = (texts: string[]) => texts.map((t, i) => pad(t, chosen[i]!.size, chosen[i]!.column.align)).join(' '.repeat(gap)).trimEnd();
  const omitted = columns(data).length - chosen.length;
  const out = [line(chosen.map((c) => c.column.header)), ...data.models.map((_, row) => line(chosen.map((c) => c.cells[row]!)))];
  if (omitted > 0) out.push(clip(`(${omitted} more column${omitted === 1 ? '' : 's'} in report.md)`, width));
  return `${out.join('\n')}\n`;
}
