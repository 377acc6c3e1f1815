// Runs: every run in the results directory, newest first.
import { getJson } from '../api.js';
import { add, badge, clear, h, href, notice, pct, when } from '../dom.js';

export async function renderRuns(view, app) {
  const data = await getJson('/api/runs');
  clear(view);
  add(view,
    h('div', { class: 'page-head' },
      h('div', null, h('h1', null, 'Runs'), h('p', { class: 'sub' }, `${data.runs.length} run${data.runs.length === 1 ? '' : 's'} in ${app.state?.results_dir ?? 'the results directory'}`)),
      h('a', { class: 'button primary', href: '#/new' }, 'New run')),
  );
  if (data.runs.length === 0) {
    add(view, h('section', { class: 'panel empty' }, 'No runs yet. ', h('a', { href: '#/new' }, 'Start one'), '.'));
    return;
  }
  const state = (r) => (r.live === 'running' || r.live === 'stopping' ? r.live : r.complete ? 'complete' : 'incomplete');
  // Tick two runs to compare them: the older is the baseline, the newer the candidate.
  const picked = new Set();
  const compare = h('button', { type: 'button', id: 'compare-selected', disabled: true, title: 'tick two runs' }, 'Compare selected');
  compare.addEventListener('click', () => {
    const [base, cand] = data.runs.filter((r) => picked.has(r.run_id)).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.run_id.localeCompare(b.run_id));
    app.go(`#/compare?${new URLSearchParams({ baseline: base.run_id, candidate: cand.run_id })}`);
  });
  const pick = (r) =>
    h('input', {
      type: 'checkbox',
      name: 'pick',
      value: r.run_id,
      'aria-label': `compare ${r.run_id}`,
      onclick: (ev) => ev.stopPropagation(),
      onchange: (ev) => {
        if (ev.target.checked) picked.add(r.run_id);
        else picked.delete(r.run_id);
        compare.disabled = picked.size !== 2;
      },
    });
  view.firstElementChild.lastElementChild.before(compare);
  add(view,
    h('section', { class: 'panel flush' },
      h('div', { class: 'table-wrap' },
        h('table', { id: 'runs-table' },
          h('thead', null, h('tr', null, h('th', null, ''), ['Run', 'Started', 'Profile', 'Models', 'Progress', 'Passed', 'Status'].map((t) => h('th', null, t)))),
          h('tbody', null,
            data.runs.map((r) => {
              const target = r.live === 'running' || r.live === 'stopping' ? href('live', r.run_id) : href('runs', r.run_id);
              return h('tr', { class: 'link', dataset: { run: r.run_id }, onclick: () => app.go(target) },
                h('td', { class: 'pick' }, pick(r)),
                h('td', null, h('a', { href: target, class: 'mono' }, r.run_id)),
                h('td', null, when(r.created_at)),
                h('td', null, r.profile),
                h('td', null, r.models.join(', ')),
                h('td', null, h('span', { class: 'mini-progress' }, h('div', { style: { width: `${r.total ? (100 * r.done) / r.total : 0}%` } })), `${r.done}/${r.total}`),
                h('td', null, `${r.passes} `, h('span', { class: 'faint' }, r.done ? `(${pct(r.passes / r.done)})` : ''), r.pending_judge ? h('div', { class: 'small muted' }, `${r.pending_judge} wait for the judge`) : null),
                h('td', null, badge(state(r))),
              );
            }),
          ),
        ),
      ),
    ),
  );
  if (data.active) view.firstElementChild.after(notice('info', 'Running now: ', h('a', { href: href('live', data.active.run_id) }, data.active.run_id)));
}
