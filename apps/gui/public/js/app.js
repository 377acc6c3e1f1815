// The single-page app: hash routes, the job bar, and page modules that render into <main>.
import { getJson, postJson, runPath } from './api.js';
import { add, clear, h, href, notice } from './dom.js';
import { renderModels } from './pages/models.js';
import { renderNewRun } from './pages/new-run.js';
import { renderLive } from './pages/live.js';
import { renderRuns } from './pages/runs.js';
import { renderResults } from './pages/results.js';
import { renderCase } from './pages/case.js';
import { renderCompare } from './pages/compare.js';

const view = document.getElementById('view');
const jobbar = document.getElementById('jobbar');
let cleanup = null;
let state = null;

/** Routes: #/models, #/new, #/live[/ID], #/runs, #/runs/ID, #/runs/ID/case?model=&case=&seed=, #/compare?baseline=&candidate=… */
function parseRoute() {
  const raw = location.hash.replace(/^#/, '') || '/runs';
  const [path, query = ''] = raw.split('?');
  const parts = path.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  return { parts, query: new URLSearchParams(query) };
}

async function refreshState() {
  try {
    state = await getJson('/api/state');
  } catch {
    return state;
  }
  renderJobbar();
  return state;
}

function renderJobbar() {
  clear(jobbar);
  const active = state?.active;
  if (!active) return;
  const p = active.progress;
  add(jobbar,
    h('span', { class: 'dot', 'aria-hidden': 'true' }),
    h('a', { href: href('live', active.run_id) }, `${active.status === 'stopping' ? 'Stopping' : 'Running'} ${active.run_id}`),
    p ? h('span', null, `${p.done}/${p.total}`) : null,
    active.status === 'running'
      ? h('button', { type: 'button', onclick: () => stopRun(active.run_id) }, 'Stop')
      : null,
  );
}

export async function stopRun(id) {
  try {
    await postJson(runPath(id, 'stop'));
  } catch (error) {
    alert(`Could not stop the run: ${error.message}`);
  }
  await refreshState();
}

const app = {
  get state() {
    return state;
  },
  refreshState,
  stopRun,
  go(hash) {
    location.hash = hash;
  },
};

async function route() {
  if (cleanup) {
    try {
      cleanup();
    } catch {
      // ignore
    }
    cleanup = null;
  }
  const { parts, query } = parseRoute();
  const tab = parts[0] === 'runs' && parts.length > 1 ? 'runs' : parts[0];
  for (const a of document.querySelectorAll('.tabs a')) a.classList.toggle('active', a.dataset.tab === tab);
  clear(view);
  add(view, h('p', { class: 'muted' }, 'Loading…'));
  try {
    let result;
    if (parts[0] === 'models') result = await renderModels(view, app);
    else if (parts[0] === 'new') result = await renderNewRun(view, app);
    else if (parts[0] === 'live') result = await renderLive(view, app, parts[1] ?? null);
    else if (parts[0] === 'compare') result = await renderCompare(view, app, query);
    else if (parts[0] === 'runs' && parts[1] && parts[2] === 'case') result = await renderCase(view, app, parts[1], query);
    else if (parts[0] === 'runs' && parts[1]) result = await renderResults(view, app, parts[1], query);
    else result = await renderRuns(view, app);
    cleanup = typeof result === 'function' ? result : null;
  } catch (error) {
    clear(view);
    add(view, notice('error', error.message || String(error)));
  }
  document.title = `CrucibleForge · ${document.querySelector('.tabs a.active')?.textContent ?? (parts[0] === 'runs' ? 'Results' : 'GUI')}`;
}

window.addEventListener('hashchange', route);
setInterval(() => {
  if (document.visibilityState === 'visible') void refreshState();
}, 4000);
void refreshState();
void route();
