import { describe, expect, it } from 'vitest';
import { collect, hello, post, sim } from './test-support';

const answer = { reasoning: 'Hmm, yes.', content: 'Yes it is.' };

describe('sim endpoint usage', () => {
  it('sends usage as a separate final chunk with choices [] only when include_usage is set', async () => {
    const s = await sim([{ id: 'm', decode_tps: 1000, answer, cached_tokens: 2 }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true, stream_options: { include_usage: true } }));
    const last = got.chunks.at(-1);
    expect(last.choices).toEqual([]);
    const t = s.truth[0]!;
    expect(last.usage).toEqual({
      prompt_tokens: t.prompt_tokens,
      completion_tokens: 6,
      total_tokens: t.prompt_tokens + 6,
      prompt_tokens_details: { cached_tokens: 2 },
      completion_tokens_details: { reasoning_tokens: 3 },
    });
    // Every other chunk carries usage: null, as OpenAI does.
    expect(got.chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(got.chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(got.done).toBe(true);

    const plain = await collect(await post(s, { model: 'm', messages: hello, stream: true }));
    expect(plain.chunks.some((c) => 'usage' in c)).toBe(false);
    expect(plain.chunks.at(-1).choices[0].finish_reason).toBe('stop');
  });

  it('puts usage and llama.cpp timings on the finish chunk for finish_chunk placement', async () => {
    const s = await sim([
      { id: 'llama', usage_placement: 'finish_chunk', llamacpp_timings: true, decode_tps: 500, answer, cached_tokens: 1 },
    ]);
    const got = await collect(await post(s, { model: 'llama', messages: hello, stream: true }));
    const finish = got.chunks.at(-1);
    expect(finish.choices[0]).toMatchObject({ finish_reason: 'stop', delta: {} });
    const t = s.truth[0]!;
    expect(finish.usage).toMatchObject({ prompt_tokens: t.prompt_tokens, completion_tokens: 6, completion_tokens_details: { reasoning_tokens: 3 } });
    const timings = finish.timings;
    expect(timings).toMatchObject({ cache_n: 1, prompt_n: t.prompt_tokens - 1, predicted_n: 6 });
    expect(timings.prompt_ms).toBeCloseTo(t.first_token_ms! - t.received_ms, 6);
    // predicted_ms spans first → last token plus the first token's own slot (2 ms at 500/s).
    expect(timings.predicted_ms).toBeCloseTo(t.last_token_ms! - t.first_token_ms! + 2, 6);
    expect(timings.predicted_per_second).toBeCloseTo((6 / timings.predicted_ms) * 1000, 6);
    expect(timings.prompt_per_second).toBeCloseTo((timings.prompt_n / timings.prompt_ms) * 1000, 6);
    expect(got.chunks.slice(0, -1).some((c) => 'usage' in c || 'timings' in c)).toBe(false);
    // include_usage does not add a second usage chunk for finish_chunk placement.
    const again = await collect(await post(s, { model: 'llama', messages: hello, stream: true, stream_options: { include_usage: true } }));
    expect(again.chunks.filter((c) => c.usage)).toHaveLength(1);
    expect(again.chunks.at(-1).choices).toHaveLength(1);
  });

  it('sends no usage at all for placement none, even with include_usage', async () => {
    const s = await sim([{ id: 'm', usage_placement: 'none', decode_tps: 1000, answer }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true, stream_options: { include_usage: true } }));
    expect(got.chunks.some((c) => c.usage)).toBe(false);
  });

  it('adds timings to a non-streaming reply when llamacpp_timings is set', async () => {
    const s = await sim([{ id: 'm', llamacpp_timings: true, decode_tps: 1000, answer }]);
    const body = await (await post(s, { model: 'm', messages: hello })).json();
    expect(body.usage.completion_tokens).toBe(6);
    expect(body.timings).toMatchObject({ predicted_n: 6, cache_n: 0, prompt_n: s.truth[0]!.prompt_tokens });
  });
});
