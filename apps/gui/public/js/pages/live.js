// Live run: progress, passes so far, tokens/s, per-model state, the log and the latest results, over SSE.
import { runPath } from '../api.js';
import { add, badge, clear, duration, h, href, notice, num, pct, put, statBox, usd } from '../dom.js';

const MAX_LOG = 2000;
const MAX_FEED = 200;

export async function renderLive(view, app, runId) {
  const id = runId ?? app.state?.active?.run_id ?? (await app.refreshState())?.active?.run_id;
  clear(view);
  if (!id) {
    add(view, h('div', { class: 'page-head' }, h('h1', null, 'Live run')), notice('info', 'Nothing is running. ', h('a', { href: '#/new' }, 'Start a run'), ' or open one from ', h('a', { href: '#/runs' }, 'Runs'), '.'));
    return;
  }
  const status = h('span', { id: 'live-status' }, badge('running'));
  const stopButton = h('button', { type: 'button', class: 'danger', id: 'stop-run', onclick: () => app.stopRun(id) }, 'Stop');
  const resultsLink = h('a', { href: href('runs', id), class: 'button', id: 'open-results', hidden: true }, 'Open results');
  const bar = h('div');
  const stats = h('div', { class: 'grid stats' });
  const models = h('div', { class: 'model-cards' });
  const log = h('div', { class: 'log', id: 'log', role: 'log' });
  const feed = h('div', { class: 'feed', id: 'feed' }, h('p', { class: 'muted' }, 'Waiting for the first result…'));
  const banner = h('div');
  add(view,
    h('div', { class: 'page-head' },
      h('div', null, h('h1', null, 'Live run ', h('span', { class: 'mono' }, id)), h('p', { class: 'sub' }, status)),
      h('div', { class: 'actions' }, resultsLink, stopButton)),
    banner,
    h('section', { class: 'panel' }, h('div', { class: 'progress', role: 'progressbar', 'aria-label': 'progress' }, bar), h('div', { style: { height: '14px' } }), stats, models),
    h('div', { class: 'grid two' },
      h('section', { class: 'panel' }, h('h2', null, 'Log'), log),
      h('section', { class: 'panel' }, h('h2', null, 'Latest results'), feed)),
  );

  const modelState = new Map();
  let progress = { done: 0, total: 0, passes: 0, tokens_per_s: null, cost_usd: 0, eta_s: null };
  let first = true;
  const drawStats = () => {
    bar.style.width = progress.total ? `${(100 * progress.done) / progress.total}%` : '0';
    put(stats,
      statBox('Done', `${progress.done} / ${progress.total}`, progress.total && progress.done >= progress.total ? 'all done' : progress.eta_s === null ? '' : `about ${duration(progress.eta_s)} left`),
      statBox('Passed so far', String(progress.passes), progress.done ? pct(progress.passes / progress.done) : ''),
      statBox('Tokens / s', num(progress.tokens_per_s), 'completion tokens, all models'),
      statBox('Cost', usd(progress.cost_usd)),
    );
  };
  const drawModels = () => {
    put(models,
      ...[...modelState.values()].map((m) =>
        h('div', { class: 'model-card' },
          h('div', { class: 'name' }, h('span', null, m.model), badge(m.state)),
          h('div', { class: 'small muted' }, `${m.passes}/${m.done} passed of ${m.total}`),
          m.message ? h('div', { class: 'small reason' }, m.message) : null)),
    );
  };
  const finish = (kind) => {
    stopButton.hidden = true;
    resultsLink.hidden = false;
    put(status, badge(kind));
    void app.refreshState();
  };
  drawStats();

  const source = new EventSource(runPath(id, 'events'));
  const on = (type, fn) => source.addEventListener(type, (ev) => fn(JSON.parse(ev.data)));
  on('start', (m) => {
    progress = { ...progress, total: m.total, done: m.already_done };
    for (const model of m.models) if (!modelState.has(model)) modelState.set(model, { model, state: 'waiting', done: 0, total: 0, passes: 0, message: null });
    drawStats();
    drawModels();
  });
  on('progress', (m) => {
    progress = m;
    drawStats();
  });
  on('model', (m) => {
    modelState.set(m.model, { ...modelState.get(m.model), ...m });
    drawModels();
  });
  on('log', (m) => {
    const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    add(log, h('div', { class: m.level }, h('span', { class: 'at' }, new Date(m.at).toLocaleTimeString()), m.text));
    while (log.childElementCount > MAX_LOG) log.firstElementChild.remove();
    if (atBottom) log.scrollTop = log.scrollHeight;
  });
  on('case', (m) => {
    if (first) {
      clear(feed);
      first = false;
    }
    const state = modelState.get(m.model);
    if (state && state.state !== 'stopped') {
      state.done += 1;
      if (m.status === 'pass') state.passes += 1;
      drawModels();
    }
    const link = `${href('runs', id, 'case')}?${new URLSearchParams({ model: m.model, case: m.case_id, ...(m.seed === null ? {} : { seed: String(m.seed) }) })}`;
    feed.prepend(
      h('a', { class: 'item', href: link, dataset: { status: m.status } },
        badge(m.status), h('span', { class: 'what' }, m.case_id), h('span', { class: 'faint small' }, m.model), h('span', { class: 'why' }, m.reason)),
    );
    while (feed.childElementCount > MAX_FEED) feed.lastElementChild.remove();
  });
  on('end', (m) => {
    finish(m.summary.complete ? 'finished' : 'stopped');
    put(banner,
      notice(m.summary.complete ? 'info' : 'warn',
        `${m.summary.complete ? 'Finished' : 'Ended early'}: ${m.summary.passes} passed, ${m.summary.failures} failed, ${m.summary.errors} errors, ${m.summary.skipped} skipped. `,
        h('a', { href: href('runs', id) }, 'See the results'), '.'),
    );
    source.close();
  });
  on('failed', (m) => {
    finish('failed');
    put(banner, notice('error', `The run failed: ${m.message}`));
    source.close();
  });
  on('not-live', () => {
    source.close();
    finish('finished');
    put(banner, notice('info', 'This run is not running in this GUI. ', h('a', { href: href('runs', id) }, 'Open its results'), '.'));
  });
  on('closed', () => source.close());
  return () => source.close();
}
