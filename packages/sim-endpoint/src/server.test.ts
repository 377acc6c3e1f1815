import { CrucibleError } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { startSimEndpoint } from './server';
import { readSse } from '@crucibleforge/core';
import { hello, post, sim } from './test-support';

describe('sim endpoint requests and lifecycle', () => {
  it('requires the API key when one is set (401 in OpenAI shape)', async () => {
    const s = await sim([{ id: 'm', decode_tps: 1000 }], { api_key: 'sekret' });
    const none = await post(s, { model: 'm', messages: hello });
    expect(none.status).toBe(401);
    expect((await none.json()).error).toMatchObject({ code: 'invalid_api_key', type: 'invalid_request_error' });
    expect((await post(s, { model: 'm', messages: hello }, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await fetch(`${s.url}/models`)).status).toBe(401);
    expect((await post(s, { model: 'm', messages: hello }, { authorization: 'Bearer sekret' })).status).toBe(200);
    expect((await fetch(`${s.url}/models`, { headers: { authorization: 'Bearer sekret' } })).status).toBe(200);
    expect(s.truth.map((t) => t.status)).toEqual([401, 401, 200]);
  });

  it('answers an unknown model with 404 listing the models', async () => {
    const s = await sim([{ id: 'alpha' }, { id: 'beta' }]);
    const res = await post(s, { model: 'gamma', messages: hello, stream: true });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.error).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect(body.error.message).toContain("'gamma'");
    expect(body.error.message).toContain('alpha, beta');
    expect(s.truth[0]).toMatchObject({ model: 'gamma', status: 404, stream: true });
    expect((await fetch(`${s.url}/models/gamma`)).status).toBe(404);
  });

  it('rejects bad bodies with 400 naming the field, and unknown routes with 404', async () => {
    const s = await sim([{ id: 'm' }]);
    const bad = await fetch(`${s.url}/chat/completions`, { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/not valid JSON/);
    const noMessages = await post(s, { model: 'm', messages: [] });
    expect(noMessages.status).toBe(400);
    expect((await noMessages.json()).error).toMatchObject({ param: 'messages' });
    const badRole = await post(s, { model: 'm', messages: [{ role: 'robot', content: 'x' }] });
    expect((await badRole.json()).error.message).toContain('messages[0].role');
    const badMax = await post(s, { model: 'm', messages: hello, max_tokens: -1 });
    expect((await badMax.json()).error.param).toBe('max_tokens');
    expect((await fetch(`${s.url}/embeddings`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect(s.requests).toHaveLength(4);
    expect(s.truth.map((t) => t.index)).toEqual([0, 1, 2, 3]);
  });

  it('answers 500 when the answer function throws', async () => {
    const s = await sim([{ id: 'm', answer: () => { throw new Error('boom'); } }]);
    const res = await post(s, { model: 'm', messages: hello });
    expect(res.status).toBe(500);
    expect((await res.json()).error.message).toContain('boom');
  });

  it('accepts array content parts and counts prompt tokens over them', async () => {
    const seen: (string | null)[] = [];
    const s = await sim([{ id: 'm', decode_tps: 1000, answer: (r) => (seen.push(r.messages[0]!.content), { content: 'k' }) }]);
    await (await post(s, { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'abcd' }, { type: 'text', text: 'efgh' }] }] })).json();
    expect(seen).toEqual(['abcdefgh']);
    expect(s.truth[0]!.prompt_tokens).toBe(2);
  });

  it('stops sending when the client goes away and marks the truth aborted', async () => {
    const s = await sim([{ id: 'm', decode_tps: 100, answer: { content: 'abcd'.repeat(500) } }]);
    const controller = new AbortController();
    const res = await fetch(`${s.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: hello, stream: true }),
      signal: controller.signal,
    });
    let data = 0;
    await expect(
      (async () => {
        for await (const e of readSse(res)) if (e.type === 'data' && ++data === 4) controller.abort();
      })(),
    ).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 100));
    const t = s.truth[0]!;
    expect(t.aborted).toBe(true);
    const tokens = t.completion_tokens;
    expect(tokens).toBeLessThan(20);
    await new Promise((r) => setTimeout(r, 50));
    expect(t.completion_tokens).toBe(tokens);
  });

  it('close() ends open streams and the server', async () => {
    const s = await startSimEndpoint({ models: [{ id: 'm', decode_tps: 50, answer: { content: 'abcd'.repeat(500) } }] });
    const res = await post(s, { model: 'm', messages: hello, stream: true });
    const reading = (async () => {
      for await (const e of readSse(res)) if (e.type === 'data' && e.data.includes('abcd')) void s.close();
    })();
    await expect(reading).rejects.toThrow();
    await s.close();
    await expect(fetch(`${s.url}/models`)).rejects.toThrow();
    expect(s.truth[0]!.aborted).toBe(true);
  });

  it('throws SIM_LISTEN_FAILED for a taken port and SIM_CONFIG_INVALID for bad options', async () => {
    const s = await sim([{ id: 'm' }]);
    const taken = startSimEndpoint({ models: [{ id: 'm' }], port: s.port });
    await expect(taken).rejects.toSatisfy((e) => CrucibleError.isInstance(e) && e.code === 'SIM_LISTEN_FAILED' && e.message.includes(String(s.port)));
    const bad = startSimEndpoint({ models: [{ id: 'm', decode_tps: 0 }] });
    await expect(bad).rejects.toSatisfy((e) => CrucibleError.isInstance(e) && e.code === 'SIM_CONFIG_INVALID' && e.message.includes('models[0].decode_tps'));
  });

  it('answers health checks and CORS preflights like local servers do', async () => {
    const s = await sim([{ id: 'm' }], { api_key: 'k' });
    const health = await fetch(s.url.replace(/\/v1$/, '/health'));
    expect(await health.json()).toEqual({ status: 'ok' });
    const preflight = await fetch(`${s.url}/chat/completions`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    expect((await post(s, { model: 'm', messages: hello })).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('serves a url with /v1 on 127.0.0.1 and a free port', async () => {
    const s = await sim([{ id: 'm' }]);
    expect(s.url).toBe(`http://127.0.0.1:${s.port}/v1`);
    expect(s.port).toBeGreaterThan(0);
  });
});
