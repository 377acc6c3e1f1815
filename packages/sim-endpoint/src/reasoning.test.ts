import { describe, expect, it } from 'vitest';
import { detectReasoningOff } from './request';
import { collect, hello, joined, post, sim } from './test-support';
import type { SimAnswer } from './types';

const answer: SimAnswer = { reasoning: 'Let me think about it.', content: 'The answer is 42.' };

describe('sim endpoint reasoning channel', () => {
  it('streams delta.reasoning_content, then content; truth orders the first tokens', async () => {
    const s = await sim([{ id: 'm', reasoning_encoding: 'reasoning_content', decode_tps: 1000, answer }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true }));
    expect(joined(got.chunks, 'reasoning_content')).toBe(answer.reasoning);
    expect(joined(got.chunks, 'content')).toBe(answer.content);
    expect(joined(got.chunks, 'reasoning')).toBe('');
    const firstContent = got.chunks.findIndex((c) => c.choices[0]?.delta?.content);
    const lastReasoning = got.chunks.findLastIndex((c) => c.choices[0]?.delta?.reasoning_content);
    expect(lastReasoning).toBeLessThan(firstContent);
    const t = s.truth[0]!;
    expect(t).toMatchObject({ reasoning_tokens: 7, content_tokens: 5, completion_tokens: 12 });
    expect(t.first_reasoning_ms).toBe(t.first_token_ms);
    expect(t.first_content_ms!).toBeGreaterThan(t.first_reasoning_ms!);
    expect(t.first_content_ms).toBe(t.event_times_ms![7]);
    expect(t.last_token_ms).toBe(t.event_times_ms!.at(-1));
  });

  it('streams delta.reasoning for the reasoning encoding (and message.reasoning without stream)', async () => {
    const s = await sim([{ id: 'm', reasoning_encoding: 'reasoning', decode_tps: 1000, answer }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true }));
    expect(joined(got.chunks, 'reasoning')).toBe(answer.reasoning);
    expect(joined(got.chunks, 'reasoning_content')).toBe('');
    expect(joined(got.chunks, 'content')).toBe(answer.content);
    const body = await (await post(s, { model: 'm', messages: hello })).json();
    expect(body.choices[0].message).toEqual({ role: 'assistant', content: answer.content, reasoning: answer.reasoning });
  });

  it('inlines <think>…</think> in content for think_tags; the tags count as reasoning tokens', async () => {
    const s = await sim([{ id: 'm', reasoning_encoding: 'think_tags', decode_tps: 1000, answer }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true }));
    expect(joined(got.chunks, 'content')).toBe(`<think>${answer.reasoning}</think>${answer.content}`);
    expect(got.chunks[1].choices[0].delta.content).toBe('<think>');
    expect(joined(got.chunks, 'reasoning_content') + joined(got.chunks, 'reasoning')).toBe('');
    const t = s.truth[0]!;
    expect(t).toMatchObject({ reasoning_tokens: 9, content_tokens: 5, completion_tokens: 14 });
    expect(t.first_content_ms).toBe(t.event_times_ms![9]);
    const body = await (await post(s, { model: 'm', messages: hello })).json();
    expect(body.choices[0].message.content).toBe(`<think>${answer.reasoning}</think>${answer.content}`);
    expect(body.usage.completion_tokens_details.reasoning_tokens).toBe(9);
  });

  it.each([
    ['reasoning_effort none', { reasoning_effort: 'none' }],
    ['chat_template_kwargs.enable_thinking false', { chat_template_kwargs: { enable_thinking: false, other: 1 } }],
    ['Ollama think false', { think: false }],
    ['OpenRouter reasoning.enabled false', { reasoning: { enabled: false } }],
    ['OpenRouter reasoning.effort none', { reasoning: { effort: 'none' } }],
    ['DeepSeek thinking disabled', { thinking: { type: 'disabled' } }],
    ['/no_think in the user message', { messages: [{ role: 'user', content: 'Hi /no_think' }] }],
  ])('detects reasoning off from %s and drops a fixed answer\'s reasoning', async (_name, extra) => {
    const seen: boolean[] = [];
    const s = await sim([
      { id: 'fixed', decode_tps: 1000, answer },
      { id: 'fn', decode_tps: 1000, answer: (r) => (seen.push(r.reasoning_off), answer) },
    ]);
    const body = await (await post(s, { model: 'fixed', messages: hello, ...extra })).json();
    expect(body.choices[0].message).toEqual({ role: 'assistant', content: answer.content });
    expect(body.usage.completion_tokens_details.reasoning_tokens).toBe(0);
    await post(s, { model: 'fn', messages: hello, ...extra }).then((r) => r.json());
    expect(seen).toEqual([true]);
  });

  it('keeps reasoning on when no switch is set, or the switch says on', () => {
    const messages = [{ role: 'user' as const, content: 'Hi /think' }];
    expect(detectReasoningOff({}, messages)).toBe(false);
    expect(detectReasoningOff({ reasoning_effort: 'low' }, messages)).toBe(false);
    expect(detectReasoningOff({ chat_template_kwargs: { enable_thinking: true } }, messages)).toBe(false);
    expect(detectReasoningOff({ think: true, reasoning: { enabled: true } }, messages)).toBe(false);
    expect(detectReasoningOff({ thinking: { type: 'enabled' } }, messages)).toBe(false);
    // /no_think in an assistant turn is not the user's switch.
    expect(detectReasoningOff({}, [{ role: 'assistant', content: '/no_think' }])).toBe(false);
  });
});
