// One case of one model: prompt, response, reasoning, tool calls, the grader's reason and the judge's verdict.
import { getJson, runPath } from '../api.js';
import { add, badge, clear, h, href, num, secs, usd, when } from '../dom.js';

const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

function message(m) {
  const calls = Array.isArray(m.tool_calls) && m.tool_calls.length ? h('pre', null, m.tool_calls.map((c) => `→ ${c.name}(${prettyArgs(c.arguments)})`).join('\n')) : null;
  const content = m.content === null || m.content === undefined || m.content === '' ? null : h('pre', null, text(m.content));
  return h('div', { class: 'msg' }, h('div', { class: 'role' }, m.role, m.name ? ` · ${m.name}` : '', m.tool_call_id ? ` · ${m.tool_call_id}` : ''), content, calls, !content && !calls ? h('pre', { class: 'faint' }, '(empty)') : null);
}

function prettyArgs(args) {
  if (typeof args !== 'string') return JSON.stringify(args);
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

function kv(pairs) {
  return h('dl', { class: 'kv' }, pairs.filter(([, v]) => v !== null && v !== undefined && v !== '').flatMap(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
}

export async function renderCase(view, app, runId, query) {
  const params = new URLSearchParams();
  for (const key of ['model', 'case', 'seed']) if (query.get(key) !== null) params.set(key, query.get(key));
  const { row } = await getJson(`${runPath(runId, 'case')}?${params}`);
  const g = row.grade;
  const j = row.judge;
  clear(view);
  add(view,
    h('div', { class: 'page-head' },
      h('div', null,
        h('div', { class: 'crumbs' }, h('a', { href: '#/runs' }, 'Runs'), ' / ', h('a', { href: href('runs', runId) }, runId), ' / ', row.case_id),
        h('h1', null, h('span', { class: 'mono' }, row.case_id), row.title ? h('span', { class: 'muted' }, ` — ${row.title}`) : null),
        h('div', null,
          h('span', { class: 'chip' }, 'model ', h('strong', null, row.model)),
          h('span', { class: 'chip' }, row.category),
          h('span', { class: 'chip' }, row.difficulty),
          row.seed === null ? null : h('span', { class: 'chip' }, `seed ${row.seed}`),
          h('span', { class: 'chip' }, `revision ${row.case_revision}`)))),
  );
  add(view,
    h('div', { class: 'grid two' },
      h('section', { class: 'panel', id: 'grade' },
        h('h2', null, 'Grade'),
        h('div', { class: `verdict ${g.status}` }, badge(g.status), ' ', h('span', { id: 'grade-reason' }, g.reason)),
        g.score === undefined ? null : h('p', { class: 'small muted' }, `elements satisfied: ${Math.round(g.score * 100)}%`),
        g.details && Object.keys(g.details).length ? h('details', null, h('summary', null, 'Grader details'), h('pre', { class: 'block' }, text(g.details))) : null,
        row.error_class ? h('p', { class: 'small' }, h('strong', null, `error ${row.error_class}: `), row.error_message ?? '') : null),
      h('section', { class: 'panel', id: 'judge' },
        h('h2', null, 'Judge'),
        j
          ? h('div', null,
              h('div', { class: `verdict ${j.verdict === 'correct' ? 'pass' : 'fail'}` }, j.verdict),
              h('p', { id: 'judge-note' }, j.note || h('span', { class: 'faint' }, 'no note')),
              kv([['judge', `${j.identity.model} (${j.identity.prompt_version})`], ['samples', `${j.samples}, ${Math.round(j.agreement * 100)}% agree`], ['judged', when(j.judged_at)]]))
          : h('p', { class: 'muted' }, row.judge_input ? 'Not judged yet.' : 'Graded without a judge.'),
        row.judge_input ? h('details', null, h('summary', null, 'Reference answer'), h('pre', { class: 'block' }, row.judge_input.reference)) : null)),
  );
  add(view, h('section', { class: 'panel', id: 'prompt' }, h('h2', null, 'Prompt'), (row.messages ?? []).map(message)));
  add(view,
    h('section', { class: 'panel', id: 'response' },
      h('h2', null, 'Response'),
      row.content ? h('pre', { class: 'block' }, row.content) : h('p', { class: 'faint' }, '(no content)'),
      row.tool_calls?.length
        ? h('div', { id: 'tool-calls' }, h('h3', null, `Tool calls (${row.tool_calls.length})`), row.tool_calls.map((c) => h('div', { class: 'msg' }, h('div', { class: 'role' }, c.name), h('pre', null, prettyArgs(c.arguments)))))
        : null),
  );
  if (row.reasoning) {
    add(view, h('section', { class: 'panel', id: 'reasoning' }, h('details', null, h('summary', null, `Reasoning (${row.reasoning.length.toLocaleString()} characters)`), h('pre', { class: 'block' }, row.reasoning))));
  }
  if (row.transcript?.length) {
    add(view, h('section', { class: 'panel', id: 'transcript' }, h('details', null, h('summary', null, `Whole conversation (${row.transcript.length} messages)`), row.transcript.map(message))));
  }
  const u = row.usage ?? {};
  add(view,
    h('section', { class: 'panel' },
      h('h2', null, 'Numbers'),
      kv([
        ['finish reason', row.finish_reason],
        ['first token', secs(row.timings?.ttft_s ?? null)],
        ['whole reply', secs(row.timings?.e2e_s ?? null)],
        ['decode', row.timings?.decode_tps == null ? null : `${num(row.timings.decode_tps)} tokens/s`],
        ['tokens', `${u.prompt_tokens ?? '–'} prompt · ${u.completion_tokens ?? '–'} completion${u.reasoning_tokens ? ` (${u.reasoning_tokens} reasoning)` : ''}`],
        ['budget sent', row.max_tokens_sent ?? null],
        ['cost', usd(row.cost_usd)],
        ['overflow', row.overflow?.happened ? (row.overflow.recovered ? 'ran out of budget while thinking; recovered' : 'ran out of budget while thinking') : null],
        ['started', when(row.started_at)],
        ['attempt', row.attempt_id ?? null],
      ])),
  );
}
