import { describe, expect, it, vi } from 'vitest';
import { collect, hello, joined, post, sim } from './test-support';

const answer = { content: 'abcd'.repeat(20) };

describe('sim endpoint faults', () => {
  it.each([429, 500, 503, 401, 404] as const)('answers a status %i fault with an OpenAI error body', async (status) => {
    const s = await sim([{ id: 'm', answer, faults: [{ kind: 'status', status, retry_after_s: 7 }] }]);
    const res = await post(s, { model: 'm', messages: hello, stream: true });
    expect(res.status).toBe(status);
    expect(res.headers.get('retry-after')).toBe(status === 429 ? '7' : null);
    const body = await res.json();
    expect(body.error).toMatchObject({ message: `Simulated HTTP ${status}` });
    expect(typeof body.error.type).toBe('string');
    expect(s.truth[0]).toMatchObject({ fault: 'status', status, completion_tokens: 0, first_token_ms: null });
    // Faults apply one per request in order: the next request is fine.
    expect((await post(s, { model: 'm', messages: hello })).status).toBe(200);
    expect(s.truth[1]).toMatchObject({ fault: null, status: 200 });
  });

  it('defaults Retry-After to 1 s and uses the given message', async () => {
    const s = await sim([{ id: 'm', faults: [{ kind: 'status', status: 429, message: 'slow down' }] }]);
    const res = await post(s, { model: 'm', messages: hello });
    expect(res.headers.get('retry-after')).toBe('1');
    expect((await res.json()).error).toMatchObject({ message: 'slow down', type: 'rate_limit_exceeded' });
  });

  it('resets the connection mid-stream after N tokens', async () => {
    const s = await sim([{ id: 'm', decode_tps: 2000, answer, faults: [{ kind: 'reset', after_tokens: 5 }] }]);
    const res = await post(s, { model: 'm', messages: hello, stream: true });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const e of (await import('@crucibleforge/core')).readSse(res)) if (e.type === 'data') seen.push(e.data);
      })(),
    ).rejects.toThrow();
    expect(seen.join('')).not.toContain('[DONE]');
    // The server records the reset when its socket closes, which can land just after the client saw it.
    await vi.waitFor(() => expect(s.truth[0]).toMatchObject({ aborted: true }));
    expect(s.truth[0]).toMatchObject({ fault: 'reset', completion_tokens: 5, finish_reason: null });
  });

  it('resets a non-streaming request instead of answering', async () => {
    const s = await sim([{ id: 'm', decode_tps: 2000, answer, faults: [{ kind: 'reset', after_tokens: 3 }] }]);
    await expect(post(s, { model: 'm', messages: hello }).then((r) => r.text())).rejects.toThrow();
    expect(s.truth[0]).toMatchObject({ fault: 'reset', completion_tokens: 0 });
  });

  it('stalls: no bytes for stall_ms after N tokens, then continues', async () => {
    const s = await sim([{ id: 'm', decode_tps: 1000, answer, faults: [{ kind: 'stall', after_tokens: 4, stall_ms: 150 }] }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true }));
    expect(joined(got.chunks, 'content')).toBe(answer.content);
    expect(got.done).toBe(true);
    const times = s.truth[0]!.event_times_ms!;
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // The only long gap is right after the 4th token, and it is at least the stall.
    expect(gaps[3]!).toBeGreaterThanOrEqual(150);
    expect(gaps.filter((g) => g >= 100)).toHaveLength(1);
    // The client saw the same silence: the data event after the stall arrived long after the one before (1 ms apart otherwise; slack for a busy test process).
    const data = got.events.filter((e) => e.type === 'data');
    // data[0] is the role chunk; data[4] carries the 4th token, data[5] the 5th.
    expect(data[5]!.at - data[4]!.at).toBeGreaterThanOrEqual(100);
    expect(s.truth[0]!.fault).toBe('stall');
  });

  it('sends one malformed data line after N tokens and goes on', async () => {
    const s = await sim([{ id: 'm', decode_tps: 2000, answer, faults: [{ kind: 'malformed_chunk', after_tokens: 2 }] }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true }));
    expect(got.bad).toHaveLength(1);
    const dataEvents = got.events.filter((e) => e.type === 'data');
    expect(dataEvents.findIndex((e) => e.type === 'data' && got.bad.includes(e.data))).toBe(3);
    expect(joined(got.chunks, 'content')).toBe(answer.content);
    expect(got.done).toBe(true);
    const plain = await post(s, { model: 'm', messages: hello });
    expect((await plain.text()).length).toBeGreaterThan(0);
  });

  it('sends a cut-off JSON body for a non-streaming malformed fault', async () => {
    const s = await sim([{ id: 'm', decode_tps: 2000, answer, faults: [{ kind: 'malformed_chunk', after_tokens: 0 }] }]);
    const res = await post(s, { model: 'm', messages: hello });
    expect(res.status).toBe(200);
    await expect(res.json()).rejects.toThrow();
  });

  it('answers 200 text/html instead of an event stream for not_sse', async () => {
    const s = await sim([{ id: 'm', answer, faults: () => ({ kind: 'not_sse' }) }]);
    const res = await post(s, { model: 'm', messages: hello, stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('<html>');
    expect(s.truth[0]).toMatchObject({ fault: 'not_sse', completion_tokens: 0 });
  });

  it('names another model in every chunk with respond_as', async () => {
    const s = await sim([{ id: 'asked', respond_as: 'something-else', decode_tps: 2000 }]);
    const got = await collect(await post(s, { model: 'asked', messages: hello, stream: true }));
    expect(new Set(got.chunks.map((c) => c.model))).toEqual(new Set(['something-else']));
    const body = await (await post(s, { model: 'asked', messages: hello })).json();
    expect(body.model).toBe('something-else');
  });

  it('indexes a fault list per model and lets a fault function see the request', async () => {
    const s = await sim([
      { id: 'a', faults: [undefined, { kind: 'status', status: 500 }] },
      { id: 'b', faults: (r) => (r.messages.some((m) => m.content === 'fail') ? { kind: 'status', status: 503 } : undefined) },
    ]);
    expect((await post(s, { model: 'b', messages: hello })).status).toBe(200);
    expect((await post(s, { model: 'a', messages: hello })).status).toBe(200);
    expect((await post(s, { model: 'b', messages: [{ role: 'user', content: 'fail' }] })).status).toBe(503);
    expect((await post(s, { model: 'a', messages: hello })).status).toBe(500);
    expect(s.truth.map((t) => t.status)).toEqual([200, 200, 503, 500]);
  });
});
