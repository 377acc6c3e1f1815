// Compare: two runs (or two models of one run) — the reporter's comparison, the same as `crucibleforge compare`.
import { getJson } from '../api.js';
import { add, badge, clear, h, href, notice, num, pct, put, secs, statBox, usd } from '../dom.js';

const VERDICT = { better: 'better', worse: 'worse', 'no-change': 'no detectable change', unknown: 'unknown' };
const SPEED = { decode_tps: 'Decode', prefill_tps: 'Prefill', ttft_s: 'Time to first token' };
const GATE = { ability: 'Ability', decode: 'Decode T/s', prefill: 'Prefill T/s', ttft: 'TTFT', cost: 'Cost per case', tokens: 'Output tokens per case' };

const verdict = (v) => badge(v, VERDICT[v] ?? v);
const pText = (p) => (p === null || p === undefined ? '–' : p < 0.001 ? 'p<0.001' : p >= 1 ? 'p=1' : `p=${p.toPrecision(2)}`);
const signed = (x, digits = 1, unit = '') => (x === null || x === undefined ? '–' : `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(digits)}${unit}`);
const spread = (noise) => (noise === null || noise === undefined ? '' : ` ±${((Math.exp(noise) - 1) * 100).toFixed(1)}%`);
const speedValue = (metric, v) => (v === null || v === undefined ? '–' : metric === 'ttft_s' ? secs(v) : `${num(v, 0)} T/s`);

/** The side choices: every run × model, newest run first. */
function choicesOf(runs) {
  return runs.flatMap((r) => r.models.map((model) => ({ run: r.run_id, model, label: `${r.run_id} · ${model} (${r.profile})` })));
}

/** The models to compare when the address names runs only: the run's first model; the candidate prefers the baseline's label. */
function resolveSides(choices, query) {
  const find = (run, model) => choices.find((c) => c.run === run && (model === null || c.model === model)) ?? null;
  const base = query.get('baseline') ? find(query.get('baseline'), query.get('baseline_model') || null) : null;
  let cand = null;
  const candRun = query.get('candidate');
  if (candRun) {
    const wanted = query.get('candidate_model');
    cand = wanted
      ? find(candRun, wanted)
      : (base && candRun !== base.run ? find(candRun, base.model) : null) ??
        choices.find((c) => c.run === candRun && !(base && c.run === base.run && c.model === base.model)) ??
        find(candRun, null);
  }
  return { base, cand };
}

function abilityTable(a) {
  const row = (cell, label) =>
    h('tr', { dataset: { scope: cell.scope } },
      h('td', null, h('strong', null, label)),
      h('td', { class: 'num' }, `${pct(cell.baseline_rate, 1)} (${cell.baseline_passes}/${cell.cases})`),
      h('td', { class: 'num' }, `${pct(cell.candidate_rate, 1)} (${cell.candidate_passes}/${cell.cases})`),
      h('td', { class: 'num' }, signed(cell.delta_pp, 1, ' pp')),
      h('td', { class: 'num' }, String(cell.regressions)),
      h('td', { class: 'num' }, String(cell.improvements)),
      h('td', { class: 'num' }, pText(cell.p_value), cell.scope !== 'overall' && cell.p_adjusted !== cell.p_value ? h('div', { class: 'small faint' }, `Holm ${pText(cell.p_adjusted)}`) : null),
      h('td', null, verdict(cell.verdict)));
  return h('table', { id: 'compare-ability' },
    h('thead', null, h('tr', null, h('th', null, 'Scope'), ['Baseline', 'Candidate', 'Change', 'Pass → fail', 'Fail → pass', 'McNemar'].map((t) => h('th', { class: 'num' }, t)), h('th', null, 'Verdict'))),
    h('tbody', null, row(a.overall, 'All cases'), a.categories.map((c) => row(c, c.scope))));
}

function speedTable(speed) {
  return h('table', { id: 'compare-speed' },
    h('thead', null, h('tr', null, h('th', null, 'Metric'), ['Baseline', 'Candidate', 'Ratio'].map((t) => h('th', { class: 'num' }, t)), h('th', null, 'Verdict'))),
    h('tbody', null,
      speed.metrics.map((m) =>
        h('tr', { dataset: { metric: m.metric } },
          h('td', null, SPEED[m.metric]),
          h('td', { class: 'num' }, speedValue(m.metric, m.baseline.median), h('span', { class: 'faint' }, spread(m.baseline.noise))),
          h('td', { class: 'num' }, speedValue(m.metric, m.candidate.median), h('span', { class: 'faint' }, spread(m.candidate.noise))),
          h('td', { class: 'num' }, m.ratio === null ? '–' : `×${m.ratio.toFixed(2)}`),
          h('td', null, verdict(m.verdict), m.note ? h('div', { class: 'small muted' }, m.note) : null)))));
}

function usageTable(c) {
  const row = (label, u, fmt) =>
    h('tr', null,
      h('td', null, label),
      h('td', { class: 'num' }, fmt(u.baseline_per_case)),
      h('td', { class: 'num' }, fmt(u.candidate_per_case)),
      h('td', { class: 'num' }, u.increase === null ? '–' : signed(u.increase * 100, 1, '%')),
      h('td', null, verdict(u.verdict), h('div', { class: 'small muted' }, u.verdict === 'unknown' ? u.note : `higher on ${u.higher}, lower on ${u.lower} of ${u.cases} cases, sign test ${pText(u.p_value)}`)));
  return h('table', { id: 'compare-usage' },
    h('thead', null, h('tr', null, h('th', null, 'Per case'), ['Baseline', 'Candidate', 'Change'].map((t) => h('th', { class: 'num' }, t)), h('th', null, 'Verdict'))),
    h('tbody', null, row('Cost', c.cost, usd), row('Output tokens', c.tokens, (v) => num(v, 0))));
}

function flippedTable(c) {
  if (c.ability.flipped.length === 0) return h('p', { class: 'muted', id: 'compare-flipped' }, 'No case flipped.');
  const caseHref = (f) => {
    const side = f.direction === 'regression' ? c.candidate : c.baseline;
    return `${href('runs', side.run_id, 'case')}?${new URLSearchParams({ model: side.model, case: f.case_id })}`;
  };
  return h('table', { id: 'compare-flipped' },
    h('thead', null, h('tr', null, ['Case', 'Category', 'Flip', 'Reason (the failing side)'].map((t) => h('th', null, t)))),
    h('tbody', null,
      c.ability.flipped.map((f) =>
        h('tr', { dataset: { case: f.case_id, direction: f.direction } },
          h('td', null, h('a', { href: caseHref(f), class: 'mono' }, f.case_id), f.title ? h('div', { class: 'small muted' }, f.title) : null),
          h('td', null, f.category, h('div', { class: 'small faint' }, f.difficulty)),
          h('td', null, badge(f.direction === 'regression' ? 'fail' : 'pass', f.direction === 'regression' ? 'pass → fail' : 'fail → pass')),
          h('td', { class: 'reason' }, f.reason)))));
}

function result(c) {
  const g = c.gate;
  const worse = [['ability', c.ability.overall.verdict], ...c.speed.metrics.map((m) => [SPEED[m.metric], m.verdict])].filter(([, v]) => v === 'worse').map(([n]) => n);
  const headline = g.failed
    ? notice('error', h('strong', null, 'Gate failed: '), g.checks.filter((k) => k.failed).map((k) => GATE[k.metric]).join(', '), ' worse beyond noise and the allowed change.')
    : notice('info', h('strong', null, g.metrics.length ? 'Gate passed. ' : 'Nothing gated. '), worse.length ? `Worse but tolerated: ${worse.join(', ')}.` : 'No gated metric is worse beyond noise.');
  headline.id = 'compare-headline';
  return [
    headline,
    h('div', { class: 'grid stats' },
      statBox('Paired cases', String(c.ability.overall.cases), 'graded on both, same revision and seed'),
      statBox('Pass → fail', String(c.ability.overall.regressions)),
      statBox('Fail → pass', String(c.ability.overall.improvements)),
      statBox('Ability', VERDICT[c.ability.overall.verdict], `exact McNemar ${pText(c.ability.overall.p_value)}`)),
    ...c.notes.map((n) => notice('warn', n)),
    h('section', { class: 'panel flush' }, h('h2', null, 'Ability'), h('div', { class: 'table-wrap' }, abilityTable(c.ability)),
      h('p', { class: 'small muted pad' }, 'Exact two-sided McNemar test on the cases only one side passed; category verdicts use Holm-adjusted p-values.')),
    h('section', { class: 'panel flush' }, h('h2', null, 'Speed'), h('div', { class: 'table-wrap' }, speedTable(c.speed)),
      h('p', { class: 'small muted pad' }, 'Medians of the speed runs, ± the spread of their repeated rounds. A change counts only when it exceeds both spreads together.')),
    h('section', { class: 'panel flush' }, h('h2', null, 'Cost and tokens per case'), h('div', { class: 'table-wrap' }, usageTable(c)),
      h('p', { class: 'small muted pad' }, 'Means over the paired cases where both sides report the figure; exact sign test on the cases where they differ.')),
    h('section', { class: 'panel flush' }, h('h2', null, 'Flipped cases'), h('div', { class: 'table-wrap' }, flippedTable(c))),
    h('section', { class: 'panel', id: 'compare-gate' }, h('h2', null, 'Gate'),
      g.checks.map((k) => h('p', { dataset: { metric: k.metric } }, badge(k.failed ? 'fail' : k.measured ? 'pass' : 'skipped', k.failed ? 'fail' : k.measured ? 'ok' : 'n/a'), ' ', h('strong', null, GATE[k.metric]), `: ${k.reason}`))),
  ];
}

export async function renderCompare(view, app, query) {
  const { runs } = await getJson('/api/runs');
  const choices = choicesOf(runs);
  clear(view);
  add(view,
    h('div', { class: 'page-head' },
      h('div', null,
        h('div', { class: 'crumbs' }, h('a', { href: '#/runs' }, 'Runs'), ' / compare'),
        h('h1', null, 'Compare'),
        h('p', { class: 'sub' }, 'Did the change make it worse? Exact paired tests on the cases both sides graded at the same revision and seed.'))));
  if (choices.length === 0) {
    add(view, h('section', { class: 'panel empty' }, 'No runs to compare yet.'));
    return;
  }
  const { base, cand } = resolveSides(choices, query);
  const select = (id, chosen) =>
    h('select', { id }, choices.map((c, i) => h('option', { value: String(i), selected: chosen !== null && c.run === chosen.run && c.model === chosen.model }, c.label)));
  const baseSelect = select('compare-baseline', base ?? choices[Math.min(1, choices.length - 1)]);
  const candSelect = select('compare-candidate', cand ?? choices[0]);
  const drop = h('input', { type: 'number', id: 'max-drop', min: '0', step: '0.5', value: query.get('max_drop_pp') ?? '0' });
  const slow = h('input', { type: 'number', id: 'max-slowdown', min: '0', step: '1', value: query.get('max_slowdown') ?? '0' });
  const go = () => {
    const b = choices[Number(baseSelect.value)];
    const c = choices[Number(candSelect.value)];
    const q = new URLSearchParams({ baseline: b.run, baseline_model: b.model, candidate: c.run, candidate_model: c.model, max_drop_pp: drop.value || '0', max_slowdown: slow.value || '0' });
    app.go(`#/compare?${q}`);
  };
  const field = (label, control, help) => h('div', { class: 'field' }, h('label', { for: control.id }, label), control, help ? h('div', { class: 'help' }, help) : null);
  add(view,
    h('section', { class: 'panel' },
      h('div', { class: 'grid compare-form' },
        field('Baseline', baseSelect, 'what you had'),
        field('Candidate', candSelect, 'the change'),
        field('Allowed drop (pp)', drop, 'pass-rate points'),
        field('Allowed slowdown (%)', slow, 'decode, prefill, TTFT')),
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', id: 'compare-run', onclick: go }, 'Compare'),
        h('button', { type: 'button', id: 'compare-swap', onclick: () => { [baseSelect.value, candSelect.value] = [candSelect.value, baseSelect.value]; go(); } }, 'Swap'))));
  if (!base || !cand) return;
  const out = h('div', { id: 'compare-result' }, h('p', { class: 'muted' }, 'Comparing…'));
  add(view, out);
  const q = new URLSearchParams({ baseline: base.run, baseline_model: base.model, candidate: cand.run, candidate_model: cand.model });
  for (const k of ['max_drop_pp', 'max_slowdown']) if (query.get(k)) q.set(k, query.get(k));
  try {
    put(out, ...result(await getJson(`/api/compare?${q}`)));
  } catch (error) {
    put(out, notice('error', error.message));
  }
}
