// New run: profile, models, categories and seed; an upper-bound cost estimate for priced models; start.
import { getJson, postJson } from '../api.js';
import { add, badge, clear, h, href, notice, put, usd } from '../dom.js';

export async function renderNewRun(view, app) {
  const [profiles, models, state] = await Promise.all([getJson('/api/profiles'), getJson('/api/models'), app.refreshState()]);
  clear(view);
  add(view, h('div', { class: 'page-head' }, h('div', null, h('h1', null, 'New run'), h('p', { class: 'sub' }, 'Pick what to run; the estimate updates as you go.'))));
  if (profiles.profiles.length === 0) {
    add(view, notice('warn', `No profiles found in the cases directory ${state?.cases_dir ?? ''}.`));
    return;
  }
  const enabled = models.configured.filter((m) => m.enabled);
  const form = {
    profile: profiles.profiles[0].name,
    models: new Set(),
    categories: new Set(Object.keys(profiles.profiles[0].categories)),
    seed: 1,
  };
  const profileOf = (name) => profiles.profiles.find((p) => p.name === name);

  const estimateBox = h('div', { id: 'estimate' }, h('p', { class: 'muted' }, 'Pick at least one model.'));
  const errorBox = h('div');
  const confirm = h('input', { type: 'checkbox', id: 'confirm-cost' });
  const confirmRow = h('label', { class: 'check', hidden: true }, confirm, h('span', { id: 'confirm-text' }, 'I accept the cost'));
  // Optional budget in USD: the run stops before its spending would pass it (the server enforces it).
  const budget = h('input', { type: 'number', id: 'budget', min: 0, step: 0.01, placeholder: 'none' });
  const budgetRow = h('div', { class: 'field', hidden: true }, h('label', { for: 'budget' }, 'Budget (USD)'), budget,
    h('div', { class: 'help' }, 'Optional: the run stops before its spending would pass it.'));
  const start = h('button', { type: 'button', class: 'primary', id: 'start-run', disabled: true }, 'Start run');
  let lastEstimate = null;
  let ticket = 0;

  const canStart = () => {
    const busy = app.state?.active;
    const priced = lastEstimate?.estimate.priced && lastEstimate.estimate.total_usd > 0;
    start.disabled = !lastEstimate || Boolean(busy) || (priced && !confirm.checked);
    start.title = busy ? `run ${busy.run_id} is still going` : '';
  };
  confirm.addEventListener('change', canStart);

  const budgetUsd = () => (budget.value.trim() === '' || !(Number(budget.value) >= 0) ? null : Number(budget.value));
  const body = () => ({
    profile: form.profile,
    models: [...form.models],
    categories: form.categories.size === Object.keys(profileOf(form.profile).categories).length ? null : [...form.categories],
    seed: form.seed,
    budget_usd: budgetUsd(),
  });
  // The server refuses a priced run unless the request names the cost the user accepted.
  const startBody = () => {
    const priced = lastEstimate?.estimate.priced && lastEstimate.estimate.total_usd > 0;
    return priced && confirm.checked ? { ...body(), accept_cost_usd: lastEstimate.estimate.total_usd } : body();
  };

  async function estimate() {
    const mine = ++ticket;
    lastEstimate = null;
    canStart();
    clear(errorBox);
    if (form.models.size === 0 || form.categories.size === 0) {
      add(clear(estimateBox), h('p', { class: 'muted' }, form.models.size === 0 ? 'Pick at least one model.' : 'Pick at least one category.'));
      return;
    }
    add(clear(estimateBox), h('p', { class: 'muted' }, 'Estimating…'));
    try {
      const e = await postJson('/api/estimate', body());
      if (mine !== ticket) return;
      lastEstimate = e;
      const priced = e.estimate.priced && e.estimate.total_usd > 0;
      confirmRow.hidden = !priced;
      budgetRow.hidden = !priced;
      confirm.checked = false;
      put(document.getElementById('confirm-text'), `I accept a cost of up to ${usd(e.estimate.total_usd)}`);
      add(clear(estimateBox),
        h('div', { class: 'grid stats' },
          h('div', { class: 'stat' }, h('div', { class: 'label' }, 'Cases'), h('div', { class: 'value' }, String(e.cases)), h('div', { class: 'hint' }, `× ${e.models.length} model${e.models.length === 1 ? '' : 's'} = ${e.total}`)),
          h('div', { class: 'stat' }, h('div', { class: 'label' }, 'Upper bound'), h('div', { class: 'value', id: 'estimate-total' }, priced ? usd(e.estimate.total_usd) : 'free'), h('div', { class: 'hint' }, priced ? 'if every reply used its whole budget' : 'no priced provider'))),
        e.resumes ? notice('info', `Continues unfinished run ${e.resumes}: ${e.already_done} of ${e.total} already done.`) : null,
        h('table', null,
          h('thead', null, h('tr', null, h('th', null, 'Model'), h('th', { class: 'num' }, 'Cases to run'), h('th', { class: 'num' }, 'At most'))),
          h('tbody', null, e.estimate.per_model.map((m) => h('tr', null, h('td', null, m.model), h('td', { class: 'num' }, String(m.cases)), h('td', { class: 'num' }, m.priced ? usd(m.usd) : 'free'))))),
      );
    } catch (error) {
      if (mine !== ticket) return;
      clear(estimateBox);
      add(errorBox, notice('error', error.message));
    }
    canStart();
  }

  start.addEventListener('click', async () => {
    start.disabled = true;
    clear(errorBox);
    try {
      const { run } = await postJson('/api/runs', startBody());
      await app.refreshState();
      app.go(href('live', run.run_id));
    } catch (error) {
      add(errorBox, notice('error', error.message));
      canStart();
    }
  });

  const categoryBox = h('div', { class: 'checks' });
  const renderCategories = () => {
    const counts = profileOf(form.profile).categories;
    add(clear(categoryBox),
      Object.entries(counts).map(([cat, n]) =>
        h('label', { class: 'check' },
          h('input', { type: 'checkbox', name: 'category', value: cat, checked: form.categories.has(cat), onchange: (ev) => { ev.target.checked ? form.categories.add(cat) : form.categories.delete(cat); void estimate(); } }),
          cat, h('span', { class: 'count' }, String(n)))),
    );
  };
  const profileHelp = h('div', { class: 'help' });
  const describeProfile = () => {
    const p = profileOf(form.profile);
    put(profileHelp, `${p.cases} cases, ${p.hard} hard${p.description ? ` — ${p.description}` : ''}`);
  };
  const profileSelect = h('select', { id: 'profile', onchange: (ev) => {
    form.profile = ev.target.value;
    form.categories = new Set(Object.keys(profileOf(form.profile).categories));
    describeProfile();
    renderCategories();
    void estimate();
  } }, profiles.profiles.map((p) => h('option', { value: p.name }, `${p.name} (${p.cases} cases)`)));

  const modelBox = h('div', { class: 'checks model-check' },
    (enabled.length ? enabled : models.configured).map((m) =>
      h('label', { class: 'check' },
        h('input', { type: 'checkbox', name: 'model', value: m.label, onchange: (ev) => { ev.target.checked ? form.models.add(m.label) : form.models.delete(m.label); void estimate(); } }),
        h('span', null, h('strong', null, m.label), h('span', { class: 'faint small' }, ` ${m.provider}`)),
        h('span', { class: 'count' }, m.availability !== 'listed' ? badge(m.availability === 'unknown' ? 'down' : 'missing', m.availability === 'unknown' ? 'endpoint down' : 'not listed') : m.prices && !m.local ? badge('priced') : badge('free', m.local ? 'local' : 'free')))),
  );
  const seed = h('input', { type: 'number', id: 'seed', min: 0, step: 1, value: '1', onchange: (ev) => { form.seed = Math.max(0, Math.floor(Number(ev.target.value) || 0)); void estimate(); } });

  add(view,
    h('div', { class: 'grid two' },
      h('section', { class: 'panel' },
        h('div', { class: 'field' }, h('label', { for: 'profile' }, 'Profile'), profileSelect, profileHelp),
        h('div', { class: 'field' }, h('label', null, 'Models'), enabled.length === 0 && models.configured.length === 0 ? notice('warn', 'No models configured.') : modelBox),
        h('div', { class: 'field' }, h('label', null, 'Categories'), categoryBox),
        h('div', { class: 'field' }, h('label', { for: 'seed' }, 'Seed'), seed, h('div', { class: 'help' }, 'Seeded cases draw their numbers from it; the same seed reproduces a run, a new one defeats memorisation.'))),
      h('section', { class: 'panel' }, h('h2', null, 'Estimate'), estimateBox, errorBox, budgetRow, h('div', { class: 'actions' }, confirmRow, start),
        app.state?.active ? h('p', { class: 'small muted' }, 'A run is going: ', h('a', { href: href('live', app.state.active.run_id) }, app.state.active.run_id), '. One run at a time.') : null)),
  );
  describeProfile();
  renderCategories();
}
