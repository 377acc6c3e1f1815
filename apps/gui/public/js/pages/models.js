// Models: what models.yaml configures, whether each endpoint is up and lists the model, and what else it offers.
import { getJson } from '../api.js';
import { add, badge, clear, h, notice, num } from '../dom.js';

const priceText = (p) => (p ? `$${num(p.input, 2)} / $${num(p.output, 2)} per M` : 'free');

// What the endpoint says about a model's weights: "4.9 GB · Q4_K_M · 8.0B", or null when it says nothing.
export function weightsText(m) {
  const parts = [];
  if (m.size_bytes !== null && m.size_bytes !== undefined) parts.push(`${num(m.size_bytes / 1e9, 1)} GB`);
  if (m.quantization) parts.push(m.quantization);
  if (m.parameter_size) parts.push(m.parameter_size);
  return parts.length > 0 ? parts.join(' · ') : null;
}

export async function renderModels(view, app, refresh = false) {
  const data = await getJson(`/api/models${refresh ? '?refresh=1' : ''}`);
  clear(view);
  add(view,
    h('div', { class: 'page-head' },
      h('div', null, h('h1', null, 'Models'), h('p', { class: 'sub' }, `${data.configured.length} configured · ${data.providers.length} providers${data.judge ? ` · judge: ${data.judge}` : ''}`)),
      h('button', { type: 'button', onclick: () => renderModels(view, app, true) }, 'Check again')),
  );
  if (data.configured.length === 0) {
    add(view, notice('info', 'No models are configured. Create models.yaml with ', h('code', null, 'crucibleforge config --init'), ', then reload.'));
  }

  add(view,
    h('section', { class: 'panel flush' },
      h('h2', null, 'Providers'),
      h('div', { class: 'table-wrap' },
        h('table', null,
          h('thead', null, h('tr', null, ['Provider', 'Kind', 'Endpoint', 'Status', 'API key'].map((t) => h('th', null, t)), h('th', { class: 'num' }, 'Models listed'))),
          h('tbody', null,
            data.providers.map((p) =>
              h('tr', null,
                h('td', null, h('strong', null, p.name)),
                h('td', null, p.kind),
                h('td', { class: 'mono' }, p.base_url),
                h('td', null, badge(p.status), p.reason ? h('div', { class: 'small muted reason' }, p.reason) : null),
                h('td', null, p.api_key_env ? h('span', null, h('code', null, p.api_key_env), ' ', badge(p.key_set ? 'up' : 'missing', p.key_set ? 'set' : 'not set')) : h('span', { class: 'faint' }, 'none needed')),
                h('td', { class: 'num' }, p.status === 'up' ? String(p.ids.length) : '–'),
              ),
            ),
          ),
        ),
      ),
    ),
  );

  add(view,
    h('section', { class: 'panel flush' },
      h('h2', null, 'Configured models'),
      h('div', { class: 'table-wrap' },
        h('table', null,
          h('thead', null, h('tr', null, ['Label', 'Provider', 'Model id', 'At endpoint', 'Weights', 'Reasoning'].map((t) => h('th', null, t)), h('th', { class: 'num' }, 'Context'), ['Price (in / out)', 'GPU lease', 'Enabled'].map((t) => h('th', null, t)))),
          h('tbody', null,
            data.configured.map((m) =>
              h('tr', null,
                h('td', null, h('strong', null, m.label)),
                h('td', null, `${m.provider} `, h('span', { class: 'faint' }, `(${m.kind})`)),
                h('td', { class: 'mono' }, m.model_id),
                h('td', null, badge(m.availability)),
                h('td', { class: 'weights' }, weightsText(m) ?? h('span', { class: 'faint' }, '–')),
                h('td', null, m.reasoning),
                h('td', { class: 'num' }, m.context_length === null ? '–' : m.context_length.toLocaleString()),
                h('td', null, m.local ? h('span', { class: 'faint' }, 'local') : priceText(m.prices)),
                h('td', null, m.lease_devices ? `GPU ${m.lease_devices.join(', ')}` : h('span', { class: 'faint' }, '–')),
                h('td', null, m.enabled ? 'yes' : h('span', { class: 'faint' }, 'no')),
              ),
            ),
          ),
        ),
      ),
    ),
  );

  add(view,
    h('section', { class: 'panel' },
      h('h2', null, 'Discovered at the endpoints, not configured'),
      data.discovered.length === 0
        ? h('p', { class: 'muted' }, 'Nothing else: every model the endpoints list is configured (or no endpoint answered).')
        : h('div', null,
            data.discovered.map((d) => h('span', { class: 'chip' }, h('strong', null, d.id), h('span', { class: 'faint' }, [d.provider, weightsText(d)].filter(Boolean).join(' · ')))),
            h('p', { class: 'small muted' }, 'Add one under models: in models.yaml to benchmark it.')),
    ),
  );
}
