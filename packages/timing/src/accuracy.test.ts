/**
 * Accuracy against the sim endpoint's recorded truth (same process, same performance.now() clock):
 * for every stream shape, median |ΔTTFT| ≤ 3 ms, decode T/s within 1.5 %, prefill T/s within 5 %,
 * token counts exact when the server sends usage.
 */
import { simTokenize, startSimEndpoint, type SimEndpoint, type SimModelOptions, type SimTruth } from '@crucibleforge/sim-endpoint';
import type { FetchLike } from '@crucibleforge/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { median } from '@crucibleforge/core';
import { streamChat } from './stream';
import type { TimedCompletion } from './types';

/** Words until the sim tokenizer counts at least `tokens` tokens. */
function textOf(tokens: number, seed: string): string {
  const words = `${seed} alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega`.split(' ');
  let text = '';
  for (let i = 0; simTokenize(text).length < tokens; i++) text += (i === 0 ? '' : ' ') + words[i % words.length];
  return text;
}

const CONTENT = textOf(200, 'Answer');
const REASONING = textOf(80, 'Thinking');
/** 500 prompt tokens (the sim counts ceil(chars / 4)). */
const PROMPT = 'p'.repeat(2000);
/** Medians over this many requests per shape (one late read on a busy machine must not decide). */
const RUNS = 5;

interface Shape {
  name: string;
  options: Omit<SimModelOptions, 'id'>;
  /** Tokens the first token-bearing event carries (to compute the true decode rate). */
  firstEventTokens: number;
  reasoning: boolean;
}

const base = { decode_tps: 1000, prefill_tps: 8000, first_token_base_ms: 0 } as const;
const SHAPES: Shape[] = [
  { name: 'plain', options: { ...base, answer: { content: CONTENT } }, firstEventTokens: 1, reasoning: false },
  { name: '4 tokens per event', options: { ...base, decode_tps: 1500, tokens_per_event: 4, answer: { content: CONTENT } }, firstEventTokens: 4, reasoning: false },
  { name: 'reasoning_content', options: { ...base, reasoning_encoding: 'reasoning_content', answer: { reasoning: REASONING, content: CONTENT } }, firstEventTokens: 1, reasoning: true },
  { name: 'reasoning', options: { ...base, reasoning_encoding: 'reasoning', answer: { reasoning: REASONING, content: CONTENT } }, firstEventTokens: 1, reasoning: true },
  { name: '<think> tags', options: { ...base, reasoning_encoding: 'think_tags', answer: { reasoning: REASONING, content: CONTENT } }, firstEventTokens: 1, reasoning: true },
  { name: 'CRLF + keep-alive comments', options: { ...base, crlf: true, keep_alive_ms: 20, first_token_base_ms: 60, answer: { content: CONTENT } }, firstEventTokens: 1, reasoning: false },
  { name: 'cold-load comments', options: { ...base, loading_comments: 3, answer: { content: CONTENT } }, firstEventTokens: 1, reasoning: false },
  { name: 'usage on the finish chunk + llama.cpp timings', options: { ...base, usage_placement: 'finish_chunk', llamacpp_timings: true, cached_tokens: 100, answer: { content: CONTENT } }, firstEventTokens: 1, reasoning: false },
  { name: 'usage as a separate chunk, 3 tokens per event', options: { ...base, usage_placement: 'separate_chunk', tokens_per_event: 3, answer: { reasoning: REASONING, content: CONTENT } }, firstEventTokens: 3, reasoning: true },
];

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startSimEndpoint({ models: SHAPES.map((s, i) => ({ id: `shape-${i}`, ...s.options })) });
});
afterAll(async () => {
  await sim?.close();
});

interface Sample {
  got: TimedCompletion;
  truth: SimTruth;
  t0: number;
}

async function measure(model: string): Promise<Sample> {
  let t0 = Number.NaN;
  const recordingFetch: FetchLike = (input, init) => {
    t0 = performance.now();
    return fetch(input, init);
  };
  const before = sim.truth.length;
  const got = await streamChat({
    baseUrl: sim.url,
    model,
    request: { messages: [{ role: 'user', content: PROMPT }], max_tokens: 1000 },
    fetch: recordingFetch,
  }).result;
  const truth = sim.truth[before];
  if (!truth) throw new Error('the sim recorded no truth');
  return { got, truth, t0 };
}

describe.each(SHAPES.map((shape, i) => ({ ...shape, model: `shape-${i}` })))('accuracy: $name', (shape) => {
  let samples: Sample[] = [];
  beforeAll(async () => {
    samples = [];
    for (let i = 0; i < RUNS; i++) samples.push(await measure(shape.model));
  }, 30_000);

  it('TTFT (any, reasoning, content) within 3 ms of the truth (median)', () => {
    const dTtft = samples.map(({ got, truth, t0 }) => Math.abs(got.ttft_s! * 1000 - (truth.first_token_ms! - t0)));
    expect(median(dTtft)).toBeLessThanOrEqual(3);
    const dContent = samples.map(({ got, truth, t0 }) => Math.abs(got.ttft_content_s! * 1000 - (truth.first_content_ms! - t0)));
    expect(median(dContent)).toBeLessThanOrEqual(3);
    if (shape.reasoning) {
      const dReasoning = samples.map(({ got, truth, t0 }) => Math.abs(got.ttft_reasoning_s! * 1000 - (truth.first_reasoning_ms! - t0)));
      expect(median(dReasoning)).toBeLessThanOrEqual(3);
      for (const { got } of samples) expect(got.ttft_content_s!).toBeGreaterThan(got.ttft_reasoning_s!);
    } else {
      for (const { got } of samples) expect(got.ttft_reasoning_s).toBeNull();
    }
    // E2E is the last token, not the trailing usage chunk.
    const dE2e = samples.map(({ got, truth, t0 }) => Math.abs(got.e2e_s! * 1000 - (truth.last_token_ms! - t0)));
    expect(median(dE2e)).toBeLessThanOrEqual(3);
  });

  it('decode T/s within 1.5 % of the truth', () => {
    const errors = samples.map(({ got, truth }) => {
      const trueTps = (truth.completion_tokens - shape.firstEventTokens) / ((truth.last_token_ms! - truth.first_token_ms!) / 1000);
      return Math.abs(got.decode_tps! / trueTps - 1);
    });
    expect(median(errors)).toBeLessThanOrEqual(0.015);
  });

  it('prefill T/s within 5 % of the truth', () => {
    const errors = samples.map(({ got, truth, t0 }) => {
      const uncached = truth.prompt_tokens - (shape.options.cached_tokens ?? 0);
      // llama.cpp timings: the server's own prefill time; otherwise the client's TTFT.
      const seconds = shape.options.llamacpp_timings
        ? (truth.first_token_ms! - truth.received_ms) / 1000
        : (truth.first_token_ms! - t0) / 1000;
      return Math.abs(got.prefill_tps! / (uncached / seconds) - 1);
    });
    expect(median(errors)).toBeLessThanOrEqual(0.05);
    for (const { got } of samples) expect(got.prefill_source).toBe(shape.options.llamacpp_timings ? 'server' : 'ttft');
  });

  it('token counts exactly as the server reported them, text reassembled', () => {
    for (const { got, truth } of samples) {
      expect(got.token_source).toBe('usage');
      expect(got.completion_tokens).toBe(truth.completion_tokens);
      expect(got.prompt_tokens).toBe(truth.prompt_tokens);
      expect(got.reasoning_tokens).toBe(truth.reasoning_tokens);
      expect(got.cached_tokens).toBe(shape.options.cached_tokens ?? 0);
      expect(got.reply.content).toBe(CONTENT);
      expect(got.reply.reasoning).toBe(shape.reasoning ? REASONING : '');
      expect(got.wrong_model).toBe(false);
      expect(got.finish_reason).toBe('stop');
      expect(got.events.token_bearing).toBe(truth.events);
    }
  });
});

describe('accuracy: server timings and comments', () => {
  it('puts llama.cpp timings beside the client figures without a mismatch', async () => {
    const { got } = await measure('shape-7');
    expect(got.server_timings?.source).toBe('llamacpp');
    expect(got.server_comparison?.decode_ratio).toBeGreaterThan(0.8);
    expect(got.server_comparison?.decode_ratio).toBeLessThan(1.2);
    expect(got.server_mismatch).toBe(false);
  });

  it('counts cold-load comments, never as tokens, and TTFB comes before TTFT', async () => {
    const { got } = await measure('shape-6');
    expect(got.events.comments).toBe(3);
    expect(got.ttfb_s!).toBeLessThan(got.ttft_s!);
  });
});
