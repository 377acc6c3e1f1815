// Results: the reporter's table with 95 % intervals, per-category chart, speed chart, and every row.
import { getJson, runPath } from '../api.js';
import { add, badge, clear, h, href, notice, num, put, rateCell, secs, usd, when } from '../dom.js';
import { categoryChart, speedChart } from '../charts.js';

const FAILED = new Set(['fail', 'error', 'judge-error']);

function caseLink(runId, row) {
  const q = new URLSearchParams({ model: row.model, case: row.case_id });
  if (row.seed !== null) q.set('seed', String(row.seed));
  return `${href('runs', runId, 'case')}?${q}`;
}

function summaryTable(report) {
  const cats = report.categories;
  return h('table', { id: 'summary-table' },
    h('thead', null,
      h('tr', null, h('th', null, '#'), h('th', null, 'Model'), h('th', null, 'Overall'), cats.map((c) => h('th', null, c)), h('th', null, 'Hard'),
        h('th', { class: 'num' }, 'Decode tok/s'), h('th', { class: 'num' }, 'First token'), h('th', { class: 'num' }, 'Cost'))),
    h('tbody', null,
      report.models.map((m) =>
        h('tr', null,
          h('td', null, String(m.rank)),
          h('td', null, h('strong', null, m.model), m.model_id && m.model_id !== m.model ? h('div', { class: 'small faint mono' }, m.model_id) : null,
            m.notes.length ? h('div', { class: 'small', title: m.notes.join('\n') }, badge('incomplete', 'see notes')) : null),
          h('td', null, rateCell(m.overall)),
          cats.map((c) => h('td', null, rateCell(m.categories[c], { bar: false }))),
          h('td', null, rateCell(m.hard, { bar: false })),
          h('td', { class: 'num' }, num(m.speed?.decode_tps)),
          h('td', { class: 'num' }, secs(m.speed?.ttft_s ?? null)),
          h('td', { class: 'num' }, usd(m.cost_usd)),
        ),
      ),
    ),
  );
}

function rowsSection(runId, rows, query) {
  const models = [...new Set(rows.map((r) => r.model))];
  const categories = [...new Set(rows.map((r) => r.category))];
  const filter = { show: query.get('show') ?? (rows.some((r) => FAILED.has(r.status)) ? 'failed' : 'all'), model: 'all', category: 'all' };
  const body = h('tbody');
  const count = h('span', { class: 'small muted' });
  const draw = () => {
    const shown = rows.filter(
      (r) =>
        (filter.show === 'all' || (filter.show === 'failed' ? FAILED.has(r.status) : r.status === filter.show)) &&
        (filter.model === 'all' || r.model === filter.model) &&
        (filter.category === 'all' || r.category === filter.category),
    );
    put(count, `${shown.length} of ${rows.length} rows`);
    put(body,
      ...shown.map((r) =>
        h('tr', { class: 'link', dataset: { case: r.case_id, model: r.model, status: r.status }, onclick: () => (location.hash = caseLink(runId, r)) },
          h('td', null, h('a', { href: caseLink(runId, r), class: 'mono' }, r.case_id), r.title ? h('div', { class: 'small muted' }, r.title) : null),
          h('td', null, r.model),
          h('td', null, r.category, h('div', { class: 'small faint' }, r.difficulty)),
          h('td', null, badge(r.status)),
          h('td', { class: 'reason' }, r.reason, r.judge_verdict ? h('div', { class: 'small muted' }, `judge: ${r.judge_verdict}`) : null),
          h('td', { class: 'num' }, secs(r.e2e_s)),
        ),
      ),
    );
    if (shown.length === 0) put(body, h('tr', null, h('td', { colspan: 6, class: 'empty' }, 'No rows match.')));
  };
  const select = (name, options, value, set) =>
    h('select', { name, onchange: (ev) => { set(ev.target.value); draw(); } }, options.map(([v, label]) => h('option', { value: v, selected: v === value }, label)));
  const section = h('section', { class: 'panel flush' },
    h('h2', null, 'Cases'),
    h('div', { class: 'filters' },
      select('show', [['failed', 'Failed and errors'], ['all', 'All rows'], ['pass', 'Passed'], ['pending', 'Waiting for the judge'], ['skipped', 'Skipped']], filter.show, (v) => (filter.show = v)),
      select('model', [['all', 'All models'], ...models.map((m) => [m, m])], 'all', (v) => (filter.model = v)),
      select('category', [['all', 'All categories'], ...categories.map((c) => [c, c])], 'all', (v) => (filter.category = v)),
      count),
    h('div', { class: 'table-wrap' },
      h('table', { id: 'rows-table' }, h('thead', null, h('tr', null, ['Case', 'Model', 'Category', 'Result', 'Reason'].map((t) => h('th', null, t)), h('th', { class: 'num' }, 'Time'))), body)),
  );
  draw();
  return section;
}

export async function renderResults(view, app, runId, query) {
  const data = await getJson(runPath(runId));
  const { run, report, charts } = data;
  clear(view);
  const live = data.live && (data.live.status === 'running' || data.live.status === 'stopping');
  add(view,
    h('div', { class: 'page-head' },
      h('div', null,
        h('div', { class: 'crumbs' }, h('a', { href: '#/runs' }, 'Runs'), ' / ', run.run_id),
        h('h1', null, 'Results'),
        h('p', { class: 'sub' }, `${run.profile} · seed ${run.seed} · ${run.cases} cases × ${run.models.length} models · ${run.rows}/${run.total} done · ${when(run.created_at)}`,
          run.judge ? ` · judge ${run.judge.model}` : '')),
      h('div', { class: 'actions' },
        run.models.length > 1 ? h('a', { class: 'button', id: 'compare-models', href: `#/compare?${new URLSearchParams({ baseline: run.run_id, candidate: run.run_id })}` }, 'Compare models') : null,
        live ? h('a', { class: 'button primary', href: href('live', run.run_id) }, 'Watch live') : null)),
  );
  if (live) add(view, notice('info', 'This run is still going; the numbers below are what has finished so far.'));
  for (const s of run.stopped) add(view, notice('warn', `${s.model} stopped (${s.reason}): ${s.message}`));
  if (!report.comparability.comparable) {
    add(view, notice('warn', 'Not every model is comparable: ', report.comparability.issues.map((i) => i.kind).join(', '), '. See the notes on the models.'));
  }
  if (report.models.length === 0) {
    add(view, h('section', { class: 'panel empty' }, 'No finished cases in this run yet.'));
    return;
  }
  add(view,
    h('section', { class: 'panel flush' }, h('h2', null, 'Pass rates with 95% intervals'), h('div', { class: 'table-wrap' }, summaryTable(report))),
    h('section', { class: 'panel', id: 'category-chart' }, h('h2', null, 'Pass rate by category'), categoryChart(charts.categories, report.models.map((m) => m.model))),
    h('div', { class: 'grid two' },
      h('section', { class: 'panel', id: 'speed-chart' }, h('h2', null, 'Speed'), speedChart(charts.speed, report.models.map((m) => m.model)),
        h('p', { class: 'small muted' }, 'Decode tokens per second and time to first token: medians over this run\'s replies.')),
      h('section', { class: 'panel', id: 'paired' }, h('h2', null, 'Is the difference real?'),
        report.paired.length
          ? report.paired.map((p) => h('p', null, p.summary, h('span', { class: 'small faint' }, ` · ${p.common} common cases, ${p.a_only} only ${p.a}, ${p.b_only} only ${p.b}`)))
          : h('p', { class: 'muted' }, 'One model: nothing to compare.'),
        h('p', { class: 'small muted' }, 'Exact McNemar test on the cases both models graded; intervals in the table are 95% Wilson intervals.'))),
    rowsSection(run.run_id, data.rows, query),
  );
}
