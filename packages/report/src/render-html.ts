import { createHash } from 'node:crypto';
import { judgeKey, judgeLabel, listSome } from './comparability';
import {
  PAIRED_FOOTNOTE,
  RATE_FOOTNOTE,
  SPEED_FOOTNOTE,
  cellText,
  ciText,
  costText,
  headerLine,
  judgesText,
  overflowText,
  pct,
  secondsText,
  tpsText,
} from './format';
import { BOARD_CSS, BOARD_JS } from './html-assets';
import { barChart, modelColour, speedScatter } from './html-charts';
import { html, trusted, type SafeHtml } from './html-escape';
import { failuresPanel } from './html-failures';
import { formatP } from './paired';
import { STATUS_COLUMNS, statusTableRows } from './status';
import type { ComparabilityIssue, ModelSummary, RateCell, ReportData } from './types';

type SortType = 'num' | 'text';

function th(label: string, sort: SortType, first: 'ascending' | 'descending', opts: { left?: boolean; cat?: string; title?: string } = {}): SafeHtml {
  return html`<th class="${opts.left ? 'l' : ''}" data-sort="${sort}" data-first="${first}"${opts.cat ? html` data-col-cat="${opts.cat}"` : ''}${opts.title ? html` title="${opts.title}"` : ''}><button type="button">${label}<span class="sort-ind" aria-hidden="true"></span></button></th>`;
}

function numAttr(value: number | null | undefined): string {
  return value == null || !Number.isFinite(value) ? '' : String(value);
}

function rateTd(cell: RateCell | undefined, cat?: string): SafeHtml {
  const catAttr = cat ? html` data-col-cat="${cat}"` : '';
  if (cell?.rate == null) {
    return html`<td class="muted" data-v=""${catAttr} title="${cell ? `${cell.attempted} attempted, none graded` : 'not run'}">${cellText(cell)}</td>`;
  }
  const extras = [
    `95 % CI ${ciText(cell)}%`,
    cell.pending ? `${cell.pending} pending` : '',
    cell.skipped ? `${cell.skipped} skipped` : '',
    cell.errors ? `${cell.errors} errors` : '',
    cell.judge_errors ? `${cell.judge_errors} judge errors` : '',
  ].filter(Boolean);
  return html`<td class="rate" data-v="${cell.rate}"${catAttr} style="--h:${Math.round(cell.rate * 120)}" title="${extras.join(' · ')}">${pct(cell.rate)}<small>${cell.passes}/${cell.graded}</small></td>`;
}

function modelTd(m: ModelSummary): SafeHtml {
  const sub = [m.model_id !== m.model ? m.model_id : null, m.provider].filter(Boolean).join(' · ');
  const flag = m.comparable ? '' : html` <span class="badge warn-b" title="${`Not comparable:\n${m.notes.join('\n')}`}">⚠</span>`;
  return html`<td class="l model" data-v="${m.model}"><span class="dot" style="background:${modelColour(m.rank - 1)}"></span>${m.model}${flag}${sub ? html`<small>${sub}</small>` : ''}</td>`;
}

/** Pending, skipped, errors and judge errors: one column, each count on its own line. */
function ungradedTd(cell: RateCell): SafeHtml {
  const parts: [number, string][] = [
    [cell.pending, 'pending'],
    [cell.skipped, 'skipped'],
    [cell.errors, cell.errors === 1 ? 'error' : 'errors'],
    [cell.judge_errors, cell.judge_errors === 1 ? 'judge error' : 'judge errors'],
  ];
  const shown = parts.filter(([n]) => n > 0);
  const total = shown.reduce((sum, [n]) => sum + n, 0);
  if (total === 0) return html`<td data-v="0" class="zero">0</td>`;
  return html`<td data-v="${total}" class="ungraded">${shown.map(([n, label]) => html`<span class="${label.replace(/ /g, '-')}">${n} ${label}</span>`)}</td>`;
}

function judgeTd(m: ModelSummary): SafeHtml {
  const title = m.judges.map((j) => `${judgeLabel(j)} @ ${j.endpoint}`).join('\n');
  const text = m.judges.length === 0 ? '—' : m.judges.length === 1 ? (m.judges[0]?.model ?? '—') : `mixed (${m.judges.length})`;
  return html`<td class="l judge" data-v="${judgesText(m.judges)}" title="${title}">${m.judges.length > 1 ? html`<span class="badge warn-b">${text}</span>` : text}</td>`;
}

function overflowTd(o: ModelSummary['overflow']): SafeHtml {
  if (o.total === 0) return html`<td data-v="0" class="zero">0</td>`;
  return html`<td data-v="${o.total}" title="${overflowText(o)}">${o.total}<small>${o.recovered} rec · ${o.unrecovered} not</small></td>`;
}

function leaderboard(data: ReportData): SafeHtml {
  const head = [
    th('#', 'num', 'ascending'),
    th('Model', 'text', 'ascending', { left: true }),
    th('All', 'num', 'descending', { title: 'all categories pooled' }),
    ...data.categories.map((c) => th(c, 'num', 'descending', { cat: c })),
    th('Hard', 'num', 'descending', { title: 'hard cases, all categories' }),
    th('Not graded', 'num', 'descending', {
      title: 'shown but not in the denominator: pending (awaiting the judge), skipped (e.g. context too small), infrastructure errors, judge errors',
    }),
    th('T/s', 'num', 'descending', { title: 'median decode tokens per second' }),
    th('TTFT', 'num', 'ascending', { title: 'median time to first token' }),
    th('Cost', 'num', 'ascending', { title: 'sum of cost_usd over the counted rows' }),
    th('Overflows', 'num', 'descending', { title: 'context overflows: recovered / not' }),
    th('Judge', 'text', 'ascending', { left: true }),
  ];
  const body = data.models.map((m) => {
    const mark = m.speed?.source === 'bench-rows' ? ' *' : '';
    const search = [m.model, m.model_id, m.provider, judgesText(m.judges)].join(' ').toLowerCase();
    return html`<tr data-model="${m.model}" data-search="${search}">
<td data-v="${m.rank}">${m.rank}</td>${modelTd(m)}${rateTd(m.overall)}${data.categories.map((c) => rateTd(m.categories[c], c))}${rateTd(m.hard)}
${ungradedTd(m.overall)}
<td data-v="${numAttr(m.speed?.decode_tps)}">${tpsText(m.speed?.decode_tps)}${m.speed?.decode_tps == null ? '' : mark}</td>
<td data-v="${numAttr(m.speed?.ttft_s)}">${secondsText(m.speed?.ttft_s)}${m.speed?.ttft_s == null ? '' : mark}</td>
<td data-v="${numAttr(m.cost_usd)}">${costText(m.cost_usd)}</td>
${overflowTd(m.overflow)}${judgeTd(m)}</tr>`;
  });
  const cols = head.length;
  return html`<section class="panel"><h2>Leaderboard</h2><div class="table-wrap"><table id="leaderboard" class="sortable">
<thead><tr>${head}</tr></thead><tbody>${body}<tr class="empty" hidden><td colspan="${cols}">No model matches the filter.</td></tr></tbody></table></div>
<p class="note">${RATE_FOOTNOTE} Hover a rate for its 95 % Wilson interval. ${SPEED_FOOTNOTE}</p></section>`;
}

/** Every model of the runs with its stop and reason, the cases it did not run and its retries. */
function statusPanel(data: ReportData): SafeHtml | '' {
  if (data.models.length === 0) return '';
  const rows = statusTableRows(data.models);
  return html`<section class="panel" id="model-status"><h2>Model status</h2><div class="table-wrap"><table>
<thead><tr>${STATUS_COLUMNS.map((c) => html`<th>${c}</th>`)}</tr></thead>
<tbody>${rows.map((r) => html`<tr data-model="${r[0]}">${r.map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody></table></div>
<p class="note">Rows whose request failed (the endpoint, not the model) are errors: never graded, redone on resume.</p></section>`;
}

function issueItem(issue: ComparabilityIssue): SafeHtml {
  switch (issue.kind) {
    case 'case-revision':
      return html`<li>Case <b>${issue.case_id}</b> (${issue.category}) ran at different revisions${issue.current_revision ? ` (current ${issue.current_revision})` : ''}: ${issue.revisions.map((r) => `${r.revision}: ${r.models.join(', ')}`).join('; ')}</li>`;
    case 'judge':
      return html`<li>Judged by different judges${issue.expected ? ` (run judge: ${judgeLabel(issue.expected)})` : ''}: ${issue.groups.map((g) => `${g.label} at ${g.identity.endpoint}: ${g.models.join(', ')} (${g.rows} rows: ${listSome(g.case_ids)})`).join('; ')}</li>`;
    case 'grader-version':
      return html`<li>Graded by different grader versions (newest ${issue.newest}): ${issue.groups.map((g) => `${g.version}: ${g.models.join(', ')} (${g.rows} rows)`).join('; ')}</li>`;
    case 'coverage':
      return html`<li>Different case sets (${issue.total_cases} cases in all): ${issue.models.filter((m) => m.missing.length > 0).map((m) => `${m.model} ran ${m.cases}`).join(', ')}</li>`;
  }
}

function warnings(data: ReportData): SafeHtml | '' {
  if (data.comparability.comparable) return '';
  return html`<div class="warn" id="comparability"><h2>⚠ Not comparable: read these numbers with care</h2><ul>${data.comparability.issues.map(issueItem)}</ul>
${data.models.filter((m) => m.notes.length > 0).length > 0 ? html`<ul>${data.models.filter((m) => m.notes.length > 0).map((m) => html`<li><b>${m.model}</b>: ${m.notes.join('; ')}</li>`)}</ul>` : ''}</div>`;
}

function toolbar(data: ReportData): SafeHtml {
  return html`<div class="toolbar" role="search">
<input id="f-text" type="search" placeholder="Filter models, cases, reasons…" aria-label="filter text">
<select id="f-model" aria-label="model"><option value="">All models</option>${data.models.map((m) => html`<option value="${m.model}">${m.model}</option>`)}</select>
<select id="f-cat" aria-label="category"><option value="">All categories</option>${data.categories.map((c) => html`<option value="${c}">${c}</option>`)}</select>
<span class="count" id="f-count"></span></div>`;
}

function charts(data: ReportData): SafeHtml {
  return html`<section class="panel"><h2>Pass rate by category</h2><div class="charts">
${barChart('All categories', '*', data.models, (m) => m.overall)}
${data.categories.map((c) => barChart(c, c, data.models, (m) => m.categories[c]))}
${barChart('Hard cases', '*', data.models, (m) => m.hard)}
</div><p class="note">Bars: pass rate; whiskers: 95 % Wilson interval.</p></section>`;
}

function pairedPanel(data: ReportData): SafeHtml {
  const rows = data.paired.map((p) => {
    const badge =
      p.verdict === 'noise'
        ? html`<span class="badge noise">within noise</span>`
        : html`<span class="badge win">${p.verdict === 'a' ? p.a : p.b} better</span>`;
    return html`<tr class="pair-row" data-a="${p.a}" data-b="${p.b}"><td class="l">${p.a}</td><td class="l">${p.b}</td><td>${p.common}</td><td>${p.a_only}</td><td>${p.b_only}</td><td>${formatP(p.p_value)}</td><td class="l">${badge}</td></tr>`;
  });
  return html`<section class="panel"><h2>Paired comparisons</h2>
${data.paired.length === 0 ? html`<p class="muted">Only one model: nothing to compare.</p>` : html`<div class="table-wrap"><table id="paired"><thead><tr><th class="l">A</th><th class="l">B</th><th title="cases both graded at the same revision">Common</th><th>Only A</th><th>Only B</th><th>p</th><th class="l">Verdict</th></tr></thead><tbody>${rows}</tbody></table></div>`}
<p class="note">${PAIRED_FOOTNOTE}</p></section>`;
}

function pairwisePanel(data: ReportData): SafeHtml | '' {
  const pw = data.pairwise;
  if (pw === null) return '';
  const ratings = pw.ratings.map(
    (r) => html`<tr><td class="l">${r.model}</td><td data-v="${numAttr(r.rating)}">${r.rating === null ? '—' : r.rating.toFixed(0)}</td><td data-v="${numAttr(r.win_rate)}">${pct(r.win_rate)}</td><td data-v="${r.wins}">${r.wins}</td><td data-v="${r.ties}">${r.ties}</td><td data-v="${r.losses}">${r.losses}</td></tr>`,
  );
  const pairs = pw.pairs.map(
    (p) => html`<tr><td class="l">${p.a}</td><td class="l">${p.b}</td><td>${p.wins}</td><td>${p.ties}</td><td>${p.losses}</td><td>${pct(p.win_rate)}</td><td>${Math.round(p.ci95[0] * 100)}–${Math.round(p.ci95[1] * 100)}%</td></tr>`,
  );
  return html`<section class="panel" id="pairwise"><h2>Pairwise (head to head)${pw.judge ? html` <span class="muted" title="${pw.judge.endpoint}">judged by ${judgeLabel(pw.judge)}</span>` : ''}</h2>
<div class="two"><div class="table-wrap"><table class="sortable"><thead><tr>${th('Model', 'text', 'ascending', { left: true })}${th('Rating', 'num', 'descending')}${th('Win rate', 'num', 'descending')}${th('Wins', 'num', 'descending')}${th('Ties', 'num', 'descending')}${th('Losses', 'num', 'ascending')}</tr></thead><tbody>${ratings}</tbody></table></div>
<div class="table-wrap"><table><thead><tr><th class="l">A</th><th class="l">B</th><th>A wins</th><th>Ties</th><th>A losses</th><th>A win rate</th><th>95 % CI</th></tr></thead><tbody>${pairs}</tbody></table></div></div>
<p class="note">Ratings: Bradley–Terry on an Elo-like scale (1000 = average). A tie counts as half a win.</p></section>`;
}

/** The board (report.html): one self-contained page, no network, no data inside the script. */
export function renderHtml(data: ReportData): string {
  const script = BOARD_JS;
  const hash = createHash('sha256').update(script, 'utf8').digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const judges = new Set(data.models.flatMap((m) => m.judges.map(judgeKey)));
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="crucibleforge ${data.tool_version}">
<title>CrucibleForge report · ${data.generated_at}</title>
<style>${trusted(BOARD_CSS)}</style></head>
<body><main>
<header class="top"><h1>CrucibleForge <span>report</span></h1></header>
<p class="meta">${headerLine(data)}${judges.size > 1 ? ' · mixed judges' : ''}</p>
${warnings(data)}
${toolbar(data)}
${leaderboard(data)}
${statusPanel(data)}
${charts(data)}
<div class="two"><section class="panel"><h2>Speed</h2>${speedScatter(data.models)}<p class="note">${SPEED_FOOTNOTE}</p></section>${pairedPanel(data)}</div>
${pairwisePanel(data)}
${failuresPanel(data)}
<footer>report schema ${data.schema_version} · ${data.counts.rows_used} rows counted of ${data.counts.rows_in} (${data.counts.rows_superseded} older attempts superseded) · opens offline, no network</footer>
</main><script>${trusted(script)}</script></body></html>
`;
  return page.value;
}
