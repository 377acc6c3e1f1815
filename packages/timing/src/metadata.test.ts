import type { FetchLike } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { fetchModelIds, listModelMetadata, probeEndpoint, serverRoot } from './metadata';
import { releaseModel } from './unload';

/** A fake endpoint: URL (and method) → JSON body; anything else is a 404; `throws` rejects like a dead port. */
function fakeFetch(routes: Record<string, unknown>, throws: string[] = []) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  const fn: FetchLike = async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (throws.some((t) => url.endsWith(t))) throw new TypeError('fetch failed');
    const key = `${method} ${url}`;
    if (!(key in routes)) return new Response('not found', { status: 404 });
    return Response.json(routes[key]);
  };
  return { fn, calls };
}

describe('listModelMetadata', () => {
  it('merges Ollama /api/tags and /api/show with /v1/models', async () => {
    const base = 'http://ollama:11434/v1';
    const { fn, calls } = fakeFetch({
      [`GET ${base}/models`]: { data: [{ id: 'qwen3:30b-a3b' }] },
      'GET http://ollama:11434/api/tags': {
        models: [{ name: 'qwen3:30b-a3b', model: 'qwen3:30b-a3b', size: 18_556_700_000, details: { family: 'qwen3moe', parameter_size: '30.5B', quantization_level: 'Q4_K_M' } }],
      },
      'POST http://ollama:11434/api/show': {
        details: { quantization_level: 'Q4_K_M' },
        model_info: {
          'general.architecture': 'qwen3moe',
          'general.parameter_count': 30_532_122_624,
          'qwen3moe.context_length': 40960,
          'qwen3moe.expert_count': 128,
          'qwen3moe.expert_used_count': 8,
        },
      },
    });
    const meta = await listModelMetadata(base, { fetch: fn, model: 'qwen3:30b-a3b' });
    expect(meta.sources).toEqual(['openai', 'ollama']);
    expect(meta.models).toEqual([
      {
        id: 'qwen3:30b-a3b',
        arch: 'qwen3moe',
        quantization: 'Q4_K_M',
        state: null,
        max_context: 40960,
        size_bytes: 18_556_700_000,
        parameter_count: 30_532_122_624,
        parameter_size: '30.5B',
        expert_count: 128,
        expert_used_count: 8,
        sources: ['openai', 'ollama'],
      },
    ]);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ model: 'qwen3:30b-a3b' });
  });

  it('reads llama.cpp meta and degrades quietly when sources fail', async () => {
    const base = 'http://llama:8080/v1';
    const { fn } = fakeFetch(
      { [`GET ${base}/models`]: { data: [{ id: 'model.gguf', meta: { n_params: 8_030_261_248, size: 4_920_000_000, n_ctx_train: 131072 } }] } },
      ['/api/tags'],
    );
    const meta = await listModelMetadata(base, { fetch: fn });
    expect(meta.sources).toEqual(['openai']);
    expect(meta.models[0]).toMatchObject({ id: 'model.gguf', parameter_count: 8_030_261_248, size_bytes: 4_920_000_000, max_context: 131072 });
    const nothing = await listModelMetadata('http://dead:1/v1', { fetch: fakeFetch({}, ['']).fn });
    expect(nothing).toEqual({ base_url: 'http://dead:1/v1', models: [], sources: [] });
  });

  it('probeEndpoint says why /v1/models listed nothing, beside the metadata', async () => {
    const base = 'http://lms:1234/v1';
    const { fn } = fakeFetch({
      [`GET ${base}/models`]: { data: [{ id: 'qwen3-8b' }, { id: 7 }] },
      'GET http://lms:1234/api/v0/models': { data: [{ id: 'qwen3-8b', quantization: 'Q4_K_M', state: 'loaded', max_context_length: 32768 }] },
    });
    const up = await probeEndpoint(base, { fetch: fn });
    expect(up.listing).toEqual({ ok: true, ids: ['qwen3-8b'] });
    expect(up.metadata.models).toEqual([expect.objectContaining({ id: 'qwen3-8b', quantization: 'Q4_K_M', state: 'loaded', max_context: 32768 })]);

    const locked: FetchLike = async () => new Response('no key', { status: 401 });
    expect((await probeEndpoint(base, { fetch: locked })).listing).toEqual({ ok: false, reason: `GET ${base}/models answered HTTP 401` });
    const dead = await probeEndpoint('http://dead:1/v1/', { fetch: fakeFetch({}, ['']).fn });
    expect(dead.listing).toEqual({ ok: false, reason: 'GET http://dead:1/v1/models failed: fetch failed' });
    expect(dead.metadata).toEqual({ base_url: 'http://dead:1/v1/', models: [], sources: [] });
    const odd = await probeEndpoint(base, { fetch: fakeFetch({ [`GET ${base}/models`]: { models: [] } }).fn });
    expect(odd.listing).toEqual({ ok: false, reason: `GET ${base}/models answered without a model list (no "data" array)` });
    expect(await fetchModelIds(base, { fetch: fakeFetch({ [`GET ${base}/models`]: { models: [] } }).fn })).toBeNull();
    expect(await fetchModelIds(base, { fetch: fn })).toEqual(['qwen3-8b']);
  });

  it('finds the server root under /v1', () => {
    expect(serverRoot('http://h:1234/v1/')).toBe('http://h:1234');
    expect(serverRoot('http://h:1234/api/openai/v1')).toBe('http://h:1234/api/openai');
  });
});

describe('releaseModel', () => {
  it('unloads every loaded LM Studio instance of the model through its API', async () => {
    const { fn, calls } = fakeFetch({
      'GET http://lms:1234/api/v1/models': { models: [{ key: 'qwen3-8b', loaded_instances: [{ id: 'qwen3-8b' }, { id: 'qwen3-8b:2' }] }, { key: 'other', loaded_instances: [{ id: 'other' }] }] },
      'POST http://lms:1234/api/v1/models/unload': { instance_id: 'x' },
    });
    const result = await releaseModel('http://lms:1234/v1', 'qwen3-8b', { providerKind: 'lmstudio', fetch: fn });
    expect(result).toMatchObject({ released: true, method: 'lmstudio-unload' });
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ instance_id: 'qwen3-8b' }, { instance_id: 'qwen3-8b:2' }]);
  });

  it('asks Ollama for keep_alive 0, and reports failure as a value', async () => {
    const { fn, calls } = fakeFetch({ 'POST http://ol:11434/api/generate': { done: true } });
    expect(await releaseModel('http://ol:11434/v1', 'llama3', { providerKind: 'ollama', fetch: fn })).toMatchObject({ released: true });
    expect(calls[0]?.body).toEqual({ model: 'llama3', keep_alive: 0 });
    const failed = await releaseModel('http://ol:11434/v1', 'llama3', { providerKind: 'ollama', fetch: fakeFetch({}).fn });
    expect(failed).toMatchObject({ released: false, detail: expect.stringContaining('HTTP 404') });
    expect(await releaseModel('http://x/v1', 'm', { providerKind: 'vllm', fetch: fn })).toMatchObject({ released: false, method: 'none' });
  });
});
