import { readSse } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { collect, hello, joined, post, sim } from './test-support';
import type { SimAnswer, SimAnswerError } from './types';

/** A promise the test settles by hand: an answer function that waits for the test. */
function gate<T>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

describe('sim endpoint answer functions that take their time', () => {
  it('opens a stream with keep-alive comments while the answer is awaited, then streams it', async () => {
    const answer = gate<SimAnswer>();
    const s = await sim([{ id: 'm', keep_alive_ms: 20, first_token_base_ms: 0, decode_tps: 1000, answer: () => answer.promise }]);
    // The headers come before the answer exists: the first keep-alive opened the stream.
    const res = await post(s, { model: 'm', messages: hello, stream: true });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = readSse(res)[Symbol.asyncIterator]();
    expect((await events.next()).value).toMatchObject({ type: 'comment', text: 'keep-alive' });
    answer.open({ content: 'at last' });
    const rest: { type: string; data?: string }[] = [];
    for (let e = await events.next(); !e.done; e = await events.next()) rest.push(e.value);
    const chunks = rest.filter((e) => e.type === 'data' && e.data !== '[DONE]').map((e) => JSON.parse(e.data!));
    expect(joined(chunks, 'content')).toBe('at last');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
    expect(s.truth[0]).toMatchObject({ status: 200, finish_reason: 'stop' });
  });

  it('hands the answer function a signal that aborts when the client goes away', async () => {
    const seen = gate<AbortSignal>();
    const s = await sim([
      {
        id: 'm',
        keep_alive_ms: 20,
        answer: (_request, { signal }) => {
          seen.open(signal);
          return new Promise<SimAnswer>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('gone'))));
        },
      },
    ]);
    const controller = new AbortController();
    const res = await fetch(`${s.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: hello, stream: true }),
      signal: controller.signal,
    });
    const signal = await seen.promise;
    expect(signal.aborted).toBe(false);
    const aborted = new Promise((resolve) => signal.addEventListener('abort', resolve));
    controller.abort();
    await expect(res.text()).rejects.toThrow();
    await aborted;
    expect(s.truth[0]!.aborted).toBe(true);
  });

  it('fails the request as the answer function says: an error body, or one error frame in an open stream', async () => {
    const refusal: SimAnswerError = { error: { status: 400, message: 'reply.md line 2: not JSON' } };
    const later = gate<SimAnswerError>();
    const s = await sim([
      { id: 'now', answer: () => refusal },
      { id: 'later', keep_alive_ms: 20, answer: () => later.promise },
    ]);
    const res = await post(s, { model: 'now', messages: hello, stream: true });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ message: 'reply.md line 2: not JSON', type: 'invalid_request_error' });
    expect(s.truth[0]!.status).toBe(400);

    const open = await post(s, { model: 'later', messages: hello, stream: true });
    expect(open.status).toBe(200);
    const events = readSse(open)[Symbol.asyncIterator]();
    expect((await events.next()).value).toMatchObject({ type: 'comment' });
    later.open(refusal);
    const rest: { type: string; data?: string }[] = [];
    for (let e = await events.next(); !e.done; e = await events.next()) rest.push(e.value);
    const data = rest.filter((e) => e.type === 'data');
    expect(data).toHaveLength(1);
    expect(JSON.parse(data[0]!.data!).error.message).toBe('reply.md line 2: not JSON');
  });

  it('sends the whole answer past max_tokens with cut_at_max_tokens: false', async () => {
    const s = await sim([
      { id: 'cut', decode_tps: 5000, answer: { content: 'one two three four' } },
      { id: 'whole', decode_tps: 5000, cut_at_max_tokens: false, answer: { content: 'one two three four' } },
    ]);
    const cut = await collect(await post(s, { model: 'cut', messages: hello, stream: true, max_tokens: 2 }));
    expect(cut.chunks.at(-1).choices[0].finish_reason).toBe('length');
    const whole = await collect(await post(s, { model: 'whole', messages: hello, stream: true, max_tokens: 2 }));
    expect(joined(whole.chunks, 'content')).toBe('one two three four');
    expect(whole.chunks.at(-1).choices[0].finish_reason).toBe('stop');
  });

  it('reads a developer message as the system message', async () => {
    const roles: string[] = [];
    const s = await sim([{ id: 'm', decode_tps: 5000, answer: (r) => (roles.push(...r.messages.map((m) => m.role)), { content: 'k' }) }]);
    expect((await post(s, { model: 'm', messages: [{ role: 'developer', content: 'Be brief.' }, ...hello] })).status).toBe(200);
    expect(roles).toEqual(['system', 'user']);
  });
});
