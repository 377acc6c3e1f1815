import { describe, expect, it } from 'vitest';
import { collect, hello, joined, post, sim } from './test-support';

describe('sim endpoint basics', () => {
  it('lists models in OpenAI and LM Studio shapes', async () => {
    const s = await sim([{ id: 'a', context_length: 8192 }, { id: 'b' }]);
    const list = await (await fetch(`${s.url}/models`)).json();
    expect(list).toMatchObject({ object: 'list', data: [{ id: 'a', object: 'model', context_length: 8192 }, { id: 'b' }] });
    expect(list.data[1]).not.toHaveProperty('context_length');
    const v0 = await (await fetch(s.url.replace(/\/v1$/, '/api/v0/models'))).json();
    expect(v0.data[0]).toMatchObject({ id: 'a', state: 'loaded', max_context_length: 8192, type: 'llm' });
    const one = await fetch(`${s.url}/models/b`);
    expect((await one.json()).id).toBe('b');
  });

  it('streams plain content that reassembles to the answer, with role chunk and [DONE]', async () => {
    const s = await sim([{ id: 'm', answer: { content: 'The quick brown fox jumps.' }, decode_tps: 1000 }]);
    const res = await post(s, { model: 'm', messages: hello, stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const got = await collect(res);
    expect(got.done).toBe(true);
    expect(got.chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(joined(got.chunks, 'content')).toBe('The quick brown fox jumps.');
    const last = got.chunks[got.chunks.length - 1];
    expect(last.choices[0]).toMatchObject({ finish_reason: 'stop', delta: {} });
    expect(got.chunks.every((c) => c.model === 'm' && c.object === 'chat.completion.chunk')).toBe(true);
    expect(got.chunks.some((c) => 'usage' in c)).toBe(false);
  });

  it('answers non-streaming with message, reasoning_content and usage', async () => {
    const s = await sim([{ id: 'm', answer: { reasoning: 'Think a bit.', content: 'Done.' }, decode_tps: 1000 }]);
    const res = await post(s, { model: 'm', messages: hello });
    const body = await res.json();
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Done.', reasoning_content: 'Think a bit.' },
    });
    expect(body.usage).toEqual({
      prompt_tokens: s.truth[0]!.prompt_tokens,
      completion_tokens: 7,
      total_tokens: s.truth[0]!.prompt_tokens + 7,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 5 },
    });
    const t = s.truth[0]!;
    expect(t).toMatchObject({ stream: false, completion_tokens: 7, reasoning_tokens: 5, content_tokens: 2, finish_reason: 'stop', status: 200, events: 1 });
    // A non-streaming reply is one send: all first/last token times are that moment.
    expect(t.event_times_ms).toEqual([t.first_token_ms]);
    expect(t.first_reasoning_ms).toBe(t.first_token_ms);
    expect(t.first_content_ms).toBe(t.last_token_ms);
    expect(t.first_token_ms!).toBeGreaterThanOrEqual(t.first_token_due_ms! + 6);
  });

  it('uses a default answer and a caller-supplied (async) answer function that sees the request', async () => {
    const seen: unknown[] = [];
    const s = await sim([
      { id: 'default' },
      {
        id: 'fn',
        answer: async (req) => {
          seen.push({ model: req.model, index: req.index, last: req.messages.at(-1)?.content, stream: req.stream, max: req.max_tokens });
          return { content: `echo: ${req.messages.at(-1)?.content ?? ''}` };
        },
      },
    ]);
    const a = await (await post(s, { model: 'default', messages: hello })).json();
    expect(a.choices[0].message.content.length).toBeGreaterThan(10);
    const b = await (await post(s, { model: 'fn', messages: hello, max_tokens: 50 })).json();
    expect(b.choices[0].message.content).toBe('echo: Hello there, sim.');
    expect(seen).toEqual([{ model: 'fn', index: 1, last: 'Hello there, sim.', stream: false, max: 50 }]);
    expect(s.requests[1]).toMatchObject({ model: 'fn', max_tokens: 50 });
  });
});
