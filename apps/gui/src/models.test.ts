/** Model discovery: what each endpoint lists (the runner's provider probe), merged with models.yaml. */
import type { FetchLike } from '@crucibleforge/core';
import { configSchema, probeProvider } from '@crucibleforge/runner';
import { describe, expect, it } from 'vitest';
import { modelsView } from './models';

const now = () => new Date('2026-03-04T05:06:07.000Z');

/** An LM Studio on lms:1234 (quantization from /api/v0) and an Ollama on ol:11434 (size from /api/tags). */
const endpoints: Record<string, unknown> = {
  'http://lms:1234/v1/models': { data: [{ id: 'qwen3-8b' }, { id: 'gemma-3-4b' }] },
  'http://lms:1234/api/v0/models': { data: [{ id: 'qwen3-8b', quantization: 'Q4_K_M', state: 'loaded' }, { id: 'gemma-3-4b', quantization: 'Q8_0' }] },
  'http://ol:11434/v1/models': { data: [{ id: 'llama3:8b' }] },
  'http://llama:8080/v1/models': { data: [{ id: 'model.gguf', meta: { n_params: 8_030_261_248, size: 4_900_000_000 } }] },
  'http://ol:11434/api/tags': { models: [{ model: 'llama3:8b', size: 4_920_000_000, details: { parameter_size: '8.0B', quantization_level: 'Q4_0' } }] },
};
const fetchFn: FetchLike = async (input) => {
  const url = String(input);
  if (url.startsWith('http://down:')) throw new TypeError('fetch failed');
  if (url === 'http://locked:1/v1/models') return new Response('no', { status: 401 });
  return url in endpoints ? Response.json(endpoints[url]) : new Response('not found', { status: 404 });
};

const config = configSchema.parse({
  version: 1,
  providers: {
    lms: { kind: 'lmstudio', base_url: 'http://lms:1234/v1' },
    ollama: { kind: 'ollama', base_url: 'http://ol:11434/v1', api_key_env: 'OL_KEY' },
    locked: { kind: 'generic', base_url: 'http://locked:1/v1' },
  },
  models: {
    qwen: { provider: 'lms', id: 'qwen3-8b' },
    llama: { provider: 'ollama', id: 'llama3:8b' },
    other: { provider: 'locked', id: 'x' },
  },
});

describe('modelsView', () => {
  it('puts the endpoint facts on configured and discovered models', async () => {
    const statuses = await Promise.all(Object.entries(config.providers).map(([name, p]) => probeProvider(name, p, { env: {}, fetch: fetchFn, now })));
    const view = modelsView(config, statuses);
    expect(view.configured.map((m) => [m.label, m.availability, m.quantization, m.size_bytes, m.parameter_size])).toEqual([
      ['qwen', 'listed', 'Q4_K_M', null, null],
      ['llama', 'listed', 'Q4_0', 4_920_000_000, '8.0B'],
      ['other', 'unknown', null, null, null],
    ]);
    expect(view.discovered).toEqual([{ provider: 'lms', id: 'gemma-3-4b', size_bytes: null, quantization: 'Q8_0', parameter_size: null }]);
  });
});
