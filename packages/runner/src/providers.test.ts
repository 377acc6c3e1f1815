import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FetchLike } from '@crucibleforge/core';
import { writeTinyLlama } from '@crucibleforge/speed/testing';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config-schema';
import { modelsView, probeProvider } from './providers';

const now = () => new Date('2026-03-04T05:06:07.000Z');

/** An LM Studio on lms:1234 (quantization from /api/v0), an Ollama on ol:11434 (size from /api/tags), a llama.cpp. */
const endpoints: Record<string, unknown> = {
  'http://lms:1234/v1/models': { data: [{ id: 'qwen3-8b' }, { id: 'gemma-3-4b' }] },
  'http://lms:1234/api/v0/models': { data: [{ id: 'qwen3-8b', quantization: 'Q4_K_M', state: 'loaded' }, { id: 'gemma-3-4b', quantization: 'Q8_0' }] },
  'http://ol:11434/v1/models': { data: [{ id: 'llama3:8b' }] },
  'http://llama:8080/v1/models': { data: [{ id: 'model.gguf', meta: { n_params: 8_030_261_248, size: 4_900_000_000 } }] },
  'http://ol:11434/api/tags': { models: [{ model: 'llama3:8b', size: 4_920_000_000, details: { parameter_size: '8.0B', quantization_level: 'Q4_0' } }] },
};
const seen: { url: string; auth: string | null }[] = [];
const fetchFn: FetchLike = async (input, init) => {
  const url = String(input);
  seen.push({ url, auth: new Headers(init?.headers).get('authorization') });
  if (url.startsWith('http://down:')) throw new TypeError('fetch failed');
  if (url === 'http://locked:1/v1/models') return new Response('no', { status: 401 });
  return url in endpoints ? Response.json(endpoints[url]) : new Response('not found', { status: 404 });
};
const world = (env: Record<string, string> = {}) => ({ env, fetch: fetchFn, now });

describe('probeProvider', () => {
  it('lists the ids with size and quantization where the endpoint tells, and sends the key', async () => {
    const lms = await probeProvider('lms', { kind: 'lmstudio', base_url: 'http://lms:1234/v1' }, world());
    expect(lms).toMatchObject({ status: 'up', reason: null, ids: ['qwen3-8b', 'gemma-3-4b'], key_set: false, checked_at: '2026-03-04T05:06:07.000Z' });
    expect(lms.served).toEqual([
      { id: 'qwen3-8b', size_bytes: null, quantization: 'Q4_K_M', parameter_size: null, max_context: null, state: 'loaded' },
      { id: 'gemma-3-4b', size_bytes: null, quantization: 'Q8_0', parameter_size: null, max_context: null, state: null },
    ]);
    const ollama = await probeProvider('ollama', { kind: 'ollama', base_url: 'http://ol:11434/v1', api_key_env: 'OL_KEY' }, world({ OL_KEY: 'sekrit' }));
    expect(ollama.served).toEqual([{ id: 'llama3:8b', size_bytes: 4_920_000_000, quantization: 'Q4_0', parameter_size: '8.0B', max_context: null, state: null }]);
    expect(seen.find((s) => s.url === 'http://ol:11434/v1/models')?.auth).toBe('Bearer sekrit');
    const llama = await probeProvider('llama', { kind: 'llamacpp', base_url: 'http://llama:8080/v1' }, world());
    expect(llama.served).toMatchObject([{ id: 'model.gguf', size_bytes: 4_900_000_000, quantization: null, parameter_size: '8.0B' }]);
    expect(JSON.stringify(ollama)).not.toContain('sekrit');
  });

  it('says why an endpoint is down', async () => {
    expect(await probeProvider('locked', { kind: 'generic', base_url: 'http://locked:1/v1' }, world())).toMatchObject({
      status: 'down',
      reason: 'GET http://locked:1/v1/models answered HTTP 401',
      ids: [],
      served: [],
    });
    const down = await probeProvider('down', { kind: 'generic', base_url: 'http://down:9/v1' }, world());
    expect(down).toMatchObject({ status: 'down', reason: 'GET http://down:9/v1/models failed: fetch failed' });
  });
});

describe('modelsView', () => {
  it('puts the endpoint facts on configured and discovered models', async () => {
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
    const statuses = await Promise.all(Object.entries(config.providers).map(([name, p]) => probeProvider(name, p, world())));
    const view = modelsView(config, statuses);
    expect(view.configured.map((m) => [m.label, m.availability, m.local, m.quantization, m.size_bytes, m.parameter_size])).toEqual([
      ['qwen', 'listed', true, 'Q4_K_M', null, null],
      ['llama', 'listed', true, 'Q4_0', 4_920_000_000, '8.0B'],
      ['other', 'unknown', false, null, null, null],
    ]);
    expect(view.discovered).toEqual([{ provider: 'lms', id: 'gemma-3-4b', size_bytes: null, quantization: 'Q8_0', parameter_size: null }]);
  });
});

describe('an in-process provider (kind llamacpp-inprocess)', () => {
  it('is up with its configured ids and the GGUF header as their facts; down naming the path when the file is missing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-gui-gguf-'));
    try {
      const { path } = await writeTinyLlama(join(dir, 'tiny.gguf'), { type: 'Q8_0', embedding: 32, layers: 1, heads: 2 });
      const local = configSchema.parse({
        providers: { engine: { kind: 'llamacpp-inprocess', gguf: path }, gone: { kind: 'llamacpp-inprocess', gguf: join(dir, 'gone.gguf') } },
        models: { tiny: { provider: 'engine', id: 'tiny' }, ghost: { provider: 'gone', id: 'ghost' } },
      });
      const before = seen.length;
      const up = await probeProvider('engine', local.providers['engine']!, { ...world(), ids: ['tiny'] });
      expect(up).toMatchObject({ status: 'up', kind: 'llamacpp-inprocess', base_url: `llamacpp-inprocess:${path}`, ids: ['tiny'] });
      expect(up.served[0]).toMatchObject({ id: 'tiny', quantization: 'Q8_0' });
      expect(up.served[0]!.size_bytes).toBeGreaterThan(0);
      const down = await probeProvider('gone', local.providers['gone']!, { ...world(), ids: ['ghost'] });
      expect(down.status).toBe('down');
      expect(down.reason).toContain(join(dir, 'gone.gguf'));
      expect(seen.length).toBe(before); // nothing was fetched
      const view = modelsView(local, [up, down]);
      expect(view.configured.find((m) => m.label === 'tiny')).toMatchObject({ availability: 'listed', local: true, quantization: 'Q8_0' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
