import { neutralizeControls } from '@crucibleforge/core';
import { judgeLabel, listSome } from './comparability';
import { failureLine, oneLine } from './failures';
import {
  PAIRED_FOOTNOTE,
  RATE_FOOTNOTE,
  SPEED_FOOTNOTE,
  TAIL_COLUMNS,
  cellText,
  ciText,
  headerLine,
  pct,
  secondsText,
  tailCells,
  tpsText,
} from './format';
import { STATUS_COLUMNS, statusTableRows } from './status';
import type { ComparabilityIssue, FailureEntry, ReportData } from './types';

/** Inline text from models or graders: one line, and nothing a Markdown renderer would turn into HTML or code. */
export function mdText(text: string): string {
  return neutralizeControls(oneLine(text)).replace(/[\\`<]/g, (ch) => `\\${ch}`);
}

function mdCell(text: string): string {
  return mdText(text).replace(/\|/g, '\\|');
}

/** A Markdown table; every cell goes through `mdCell` (one line, escaped). */
export function table(header: readonly string[], align: readonly ('l' | 'r')[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.map(mdCell).join(' | ')} |`;
  const rule = `|${align.map((a) => (a === 'r' ? '---:' : '---')).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** The leaderboard table alone (what `crucibleforge report` prints to the terminal). */
export function renderSummaryTable(data: ReportData): string {
  const header = ['#', 'Model', 'All', ...data.categories, ...TAIL_COLUMNS];
  const align = header.map((_, i) => (i === 1 || i === header.length - 1 ? 'l' : 'r'));
  const rows = data.models.map((m) => [
    String(m.rank),
    m.comparable ? m.model : `${m.model} ⚠`,
    cellText(m.overall),
    ...data.categories.map((c) => cellText(m.categories[c])),
    ...tailCells(m),
  ]);
  return table(header, align, rows);
}

function intervalsTable(data: ReportData): string {
  const header = ['Model', 'All', ...data.categories, 'Hard'];
  const rows = data.models.map((m) => [
    m.model,
    ...[m.overall, ...data.categories.map((c) => m.categories[c]), m.hard].map((cell) =>
      cell?.rate == null ? '—' : `${pct(cell.rate)} [${ciText(cell)}]`,
    ),
  ]);
  return table(
    header,
    header.map((_, i) => (i === 0 ? 'l' : 'r')),
    rows,
  );
}

function issueLine(issue: ComparabilityIssue): string {
  switch (issue.kind) {
    case 'case-revision': {
      const groups = issue.revisions.map((r) => `${r.revision}: ${r.models.join(', ')}`).join('; ');
      const current = issue.current_revision === null ? '' : ` (current ${issue.current_revision})`;
      return `Case ${issue.case_id} [${issue.category}] ran at different revisions${current}: ${groups}`;
    }
    case 'judge': {
      const groups = issue.groups
        .map((g) => `${g.label} at ${g.identity.endpoint}: ${g.models.join(', ')} (${g.rows} rows: ${listSome(g.case_ids)})`)
        .join('; ');
      const expected = issue.expected === null ? '' : ` (run judge: ${judgeLabel(issue.expected)})`;
      return `Judged by different judges${expected}: ${groups}`;
    }
    case 'grader-version':
      return `Graded by different grader versions (newest ${issue.newest}): ${issue.groups.map((g) => `${g.version}: ${g.models.join(', ')} (${g.rows} rows)`).join('; ')}`;
    case 'coverage': {
      const short = issue.models.filter((m) => m.missing.length > 0);
      return `Different case sets (${issue.total_cases} cases in all): ${short
        .map((m) => `${m.model} ran ${m.cases}`)
        .join(', ')}`;
    }
  }
}

function comparabilitySection(data: ReportData): string[] {
  if (data.comparability.comparable) return [];
  const out = ['> **Not comparable: read these numbers with care.**', '>'];
  for (const issue of data.comparability.issues) out.push(`> - ${mdText(issueLine(issue))}`);
  out.push('');
  const noted = data.models.filter((m) => m.notes.length > 0);
  if (noted.length > 0) {
    out.push('Flagged models (⚠):', '');
    for (const m of noted) out.push(`- ${mdText(m.model)}: ${m.notes.map(mdText).join('; ')}`);
    out.push('');
  }
  return out;
}

/** Every model, stopped or not: why it stopped, what it did not run, what its requests met. */
function statusSection(data: ReportData): string[] {
  if (data.models.length === 0) return [];
  return [
    '## Model status',
    '',
    table(STATUS_COLUMNS, STATUS_COLUMNS.map(() => 'l' as const), statusTableRows(data.models)),
    '',
    '_Rows whose request failed (the endpoint, not the model) are errors: never graded, redone on resume._',
    '',
  ];
}

function speedSection(data: ReportData): string[] {
  const withSpeed = data.models.filter((m) => m.speed !== null);
  if (withSpeed.length === 0) return [];
  const rows = withSpeed.map((m) => [
    m.model,
    tpsText(m.speed?.decode_tps),
    secondsText(m.speed?.ttft_s),
    tpsText(m.speed?.prefill_tps),
    m.speed?.source === 'speed-run' ? 'speed run' : 'bench rows',
    m.speed?.plausibility ? `${m.speed.plausibility.confidence}${m.speed.plausibility.reasons.length ? `: ${m.speed.plausibility.reasons.join('; ')}` : ''}` : '—',
  ]);
  return [
    '## Speed',
    '',
    table(['Model', 'Decode T/s', 'TTFT', 'Prefill T/s', 'Source', 'Plausibility'], ['l', 'r', 'r', 'r', 'l', 'l'], rows),
    '',
  ];
}

function pairedSection(data: ReportData): string[] {
  if (data.paired.length === 0) return [];
  const out = ['## Paired comparisons (exact McNemar)', ''];
  for (const p of data.paired) {
    out.push(
      `- ${mdText(p.summary)} — ${p.common} common graded cases; only ${mdText(p.a)} passed ${p.a_only}, ` +
        `only ${mdText(p.b)} passed ${p.b_only}` +
        (p.excluded_revision > 0 ? `; ${p.excluded_revision} left out (different case revisions)` : ''),
    );
  }
  out.push('', `_${PAIRED_FOOTNOTE}_`, '');
  return out;
}

function pairwiseSection(data: ReportData): string[] {
  const pw = data.pairwise;
  if (pw === null) return [];
  const judge = pw.judge === null ? '' : ` (judged by ${judgeLabel(pw.judge)})`;
  const ratings = pw.ratings.map((r) => [
    r.model,
    r.rating === null ? '—' : r.rating.toFixed(0),
    pct(r.win_rate),
    String(r.wins),
    String(r.ties),
    String(r.losses),
    String(r.games),
  ]);
  const pairs = pw.pairs.map((p) => [
    p.a,
    p.b,
    String(p.wins),
    String(p.ties),
    String(p.losses),
    pct(p.win_rate),
    `${Math.round(p.ci95[0] * 100)}–${Math.round(p.ci95[1] * 100)}`,
  ]);
  return [
    `## Pairwise${judge}`,
    '',
    table(['Model', 'Rating', 'Win rate', 'Wins', 'Ties', 'Losses', 'Games'], ['l', 'r', 'r', 'r', 'r', 'r', 'r'], ratings),
    '',
    table(['A', 'B', 'A wins', 'Ties', 'A losses', 'A win rate', '95 % CI'], ['l', 'l', 'r', 'r', 'r', 'r', 'r'], pairs),
    '',
    '_Ratings: Bradley–Terry on an Elo-like scale (1000 = average). Win rate counts a tie as half a win._',
    '',
  ];
}

function failuresSection(failures: readonly FailureEntry[], data: ReportData): string[] {
  const out = [`## Failures (${failures.length})`, ''];
  if (failures.length === 0) return [...out, 'None.', ''];
  for (const m of data.models) {
    const mine = failures.filter((f) => f.model === m.model);
    if (mine.length === 0) continue;
    out.push(`### ${mdText(m.model)} (${mine.length})`, '');
    for (const f of mine) out.push(`- ${mdText(failureLine(f))}`);
    out.push('');
  }
  return out;
}

/** The whole report as GitHub-flavoured Markdown (report.md). */
export function renderMarkdown(data: ReportData): string {
  const lines = [
    '# CrucibleForge report',
    '',
    mdText(headerLine(data)),
    '',
    ...comparabilitySection(data),
    '## Leaderboard',
    '',
    renderSummaryTable(data),
    '',
    `_${RATE_FOOTNOTE} ${SPEED_FOOTNOTE}_`,
    '',
    ...statusSection(data),
    '## 95 % intervals (Wilson)',
    '',
    intervalsTable(data),
    '',
    ...speedSection(data),
    ...pairedSection(data),
    ...pairwiseSection(data),
    ...failuresSection(data.failures, data),
  ];
  const superseded = data.counts.rows_superseded;
  if (superseded > 0) lines.push(`_${superseded} older attempt${superseded === 1 ? '' : 's'} superseded by a later run._`, '');
  // Model output is untrusted: no control character or escape sequence of it reaches report.md as itself.
  return neutralizeControls(`${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`);
}
