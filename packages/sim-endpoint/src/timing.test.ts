import { describe, expect, it } from 'vitest';
import { collect, hello, joined, post, sim } from './test-support';
import { countPromptTokens } from './tokenize';

/** Lateness of each token-carrying event against its absolute deadline first_due + first_token / tps. */
function lateness(times: number[], firstDue: number, tokensPerEvent: number, tps: number): number[] {
  return times.map((t, k) => t - (firstDue + ((k * tokensPerEvent) / tps) * 1000));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('sim endpoint timing', () => {
  it('sends 1,000 tokens at 200/s on absolute deadlines without drift', { timeout: 20_000 }, async () => {
    const s = await sim([{ id: 'm', decode_tps: 200, first_token_base_ms: 10, answer: { content: 'abcd'.repeat(1000) } }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true }));
    expect(joined(got.chunks, 'content')).toBe('abcd'.repeat(1000));
    const truth = s.truth[0]!;
    expect(truth.completion_tokens).toBe(1000);
    const times = truth.event_times_ms!;
    expect(times).toHaveLength(1000);
    const errors = lateness(times, truth.first_token_due_ms!, 1, 200);
    // Never early.
    expect(Math.min(...errors)).toBeGreaterThanOrEqual(0);
    // The last token is due 4.995 s after the first; its lateness must not exceed 2 ms more than the
    // worst single hiccup seen before it (no accumulation), and typical events are on time.
    const worstBefore = Math.max(...errors.slice(0, -1));
    expect(errors.at(-1)!).toBeLessThanOrEqual(2 + worstBefore);
    expect(median(errors)).toBeLessThanOrEqual(2);
    // The schedule spans exactly 999 intervals of 5 ms (within the same bound).
    expect(Math.abs(times.at(-1)! - times[0]! - 4995)).toBeLessThanOrEqual(2 + worstBefore);
  });

  it('delays the first token by base + prompt_tokens / prefill_tps and records it', async () => {
    const messages = [{ role: 'user', content: 'x'.repeat(4000) }];
    const s = await sim([{ id: 'm', first_token_base_ms: 30, prefill_tps: 10_000, decode_tps: 1000 }]);
    await collect(await post(s, { model: 'm', messages, stream: true }));
    const truth = s.truth[0]!;
    expect(truth.prompt_tokens).toBe(countPromptTokens(messages as never));
    expect(truth.prompt_tokens).toBe(1000);
    // 30 ms base + 1000 / 10 000 s = 130 ms after receipt.
    expect(truth.first_token_due_ms! - truth.received_ms).toBeCloseTo(130, 6);
    expect(truth.first_token_ms!).toBeGreaterThanOrEqual(truth.first_token_due_ms!);
    expect(truth.first_token_ms! - truth.first_token_due_ms!).toBeLessThan(50);
  });

  it('carries tokens_per_event tokens per event on deadlines spaced tokens_per_event / tps', async () => {
    const s = await sim([{ id: 'm', decode_tps: 400, tokens_per_event: 4, answer: { content: 'abcd'.repeat(42) } }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true }));
    const contentChunks = got.chunks.filter((c) => c.choices[0]?.delta?.content);
    // 42 tokens → 10 events of 4 tokens and one of 2 (the role chunk's "" is excluded).
    expect(contentChunks.map((c) => c.choices[0].delta.content.length)).toEqual([...Array(10).fill(16), 8]);
    const truth = s.truth[0]!;
    expect(truth.events).toBe(11);
    const errors = lateness(truth.event_times_ms!, truth.first_token_due_ms!, 4, 400);
    expect(Math.min(...errors)).toBeGreaterThanOrEqual(0);
    expect(median(errors)).toBeLessThanOrEqual(2);
  });

  it('sends : loading model comments before the first token and delays it by 50 ms each', async () => {
    const s = await sim([{ id: 'm', loading_comments: 3, first_token_base_ms: 5, decode_tps: 1000, answer: { content: 'hi' } }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true }));
    expect(got.comments).toEqual(['loading model', 'loading model', 'loading model']);
    const firstData = got.events.findIndex((e) => e.type === 'data');
    expect(got.events.slice(0, firstData).every((e) => e.type === 'comment')).toBe(true);
    const truth = s.truth[0]!;
    expect(truth.first_token_due_ms! - truth.received_ms).toBeCloseTo(150 + 5 + (truth.prompt_tokens / 2000) * 1000, 6);
  });

  it('sends : keep-alive comments while waiting for the first token', async () => {
    const s = await sim([{ id: 'm', keep_alive_ms: 20, first_token_base_ms: 110, decode_tps: 1000, answer: { content: 'hi' } }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true }));
    const before = got.events.slice(0, got.events.findIndex((e) => e.type === 'data' && e.data.includes('"hi"')));
    expect(before.filter((e) => e.type === 'comment' && e.text === 'keep-alive')).toHaveLength(5);
    expect(got.comments.filter((c) => c === 'keep-alive')).toHaveLength(5);
  });

  it('uses CRLF line ends when asked, LF otherwise', async () => {
    const s = await sim([
      { id: 'crlf', crlf: true, keep_alive_ms: 10, first_token_base_ms: 25, decode_tps: 1000, answer: { content: 'a b' } },
      { id: 'lf', decode_tps: 1000, answer: { content: 'a b' } },
    ]);
    const crlf = await (await post(s, { model: 'crlf', messages: hello, stream: true })).text();
    expect(crlf).toContain(': keep-alive\r\n\r\n');
    expect(crlf.endsWith('data: [DONE]\r\n\r\n')).toBe(true);
    expect(crlf.replace(/\r\n/g, '')).not.toContain('\n');
    const lf = await (await post(s, { model: 'lf', messages: hello, stream: true })).text();
    expect(lf).not.toContain('\r');
    expect(lf.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('can leave out the role chunk', async () => {
    const s = await sim([{ id: 'm', role_chunk: false, decode_tps: 1000, answer: { content: 'hi' } }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true }));
    expect(got.chunks.some((c) => c.choices[0]?.delta?.role)).toBe(false);
    expect(got.chunks[0].choices[0].delta).toEqual({ content: 'hi' });
  });
});
