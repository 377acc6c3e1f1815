import { describe, expect, it } from 'vitest';
import { Measurement } from './measure';
import type { TimingEvent } from './types';

const delta = (d: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  model: 'm',
  choices: [{ index: 0, delta: d, finish_reason: null }],
  ...extra,
});
const finish = (reason: string, extra: Record<string, unknown> = {}) => ({
  model: 'm',
  choices: [{ index: 0, delta: {}, finish_reason: reason }],
  ...extra,
});
const usageChunk = (prompt: number, completion: number, reasoning = 0, cached = 0) => ({
  model: 'm',
  choices: [],
  usage: {
    prompt_tokens: prompt,
    completion_tokens: completion,
    prompt_tokens_details: { cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: reasoning },
  },
});

/** t0 = 1000 ms; `at` is ms after t0. */
function run(feed: (m: Measurement, at: (ms: number) => number) => void, model = 'm') {
  const events: TimingEvent[] = [];
  const m = new Measurement(model, 1000, (e) => events.push(e));
  const at = (ms: number) => 1000 + ms;
  m.headers(at(5), 200, 'text/event-stream');
  feed(m, at);
  return { result: m.result(), events, m };
}

describe('Measurement', () => {
  it('never counts a role-only chunk, an empty delta, a comment or the usage chunk as a token', () => {
    const { result } = run((m, at) => {
      m.bytes(at(10));
      m.comment(at(10), 'loading model');
      m.chunk(at(20), delta({ role: 'assistant', content: '' }));
      m.chunk(at(30), delta({}));
      m.chunk(at(40), delta({ content: 'Hi' }));
      m.chunk(at(50), delta({ content: ' there' }));
      m.chunk(at(60), finish('stop'));
      m.chunk(at(70), usageChunk(10, 2));
      m.end(at(71));
    });
    expect(result.ttfb_s).toBeCloseTo(0.01, 9);
    expect(result.ttft_s).toBeCloseTo(0.04, 9);
    expect(result.ttft_content_s).toBeCloseTo(0.04, 9);
    expect(result.e2e_s).toBeCloseTo(0.05, 9); // the trailing finish and usage chunks do not move E2E
    expect(result.events).toEqual({ total: 6, token_bearing: 2, comments: 1, malformed: 0 });
    expect(result.reply.content).toBe('Hi there');
    expect(result.finish_reason).toBe('stop');
    // 2 tokens, one per event: (2 - 1) / 0.01 s
    expect(result.decode_tps).toBeCloseTo(100, 6);
    expect(result.token_source).toBe('usage');
  });

  it('estimates the first event\'s tokens from its share of characters when events carry several', () => {
    const { result } = run((m, at) => {
      m.chunk(at(100), delta({ content: 'aaaaaaaa' })); // 8 of 40 chars
      m.chunk(at(110), delta({ content: 'aaaaaaaaaaaa' }));
      m.chunk(at(120), delta({ content: 'aaaaaaaaaaaaaaaaaaaa' }));
      m.chunk(at(121), finish('stop'));
      m.chunk(at(122), usageChunk(50, 10));
      m.end(at(123));
    });
    // N_first = 10 × 8/40 = 2; decode = (10 − 2) / 0.020 s
    expect(result.first_event_tokens).toBeCloseTo(2, 9);
    expect(result.decode_tps).toBeCloseTo(400, 6);
    // prefill: 50 uncached tokens over TTFT 0.1 s
    expect(result.prefill_source).toBe('ttft');
    expect(result.prefill_tps).toBeCloseTo(500, 6);
  });

  it('times reasoning and content apart for reasoning_content, reasoning and inline tags', () => {
    for (const shape of ['reasoning_content', 'reasoning', 'tags'] as const) {
      const { result } = run((m, at) => {
        if (shape === 'tags') {
          m.chunk(at(10), delta({ content: '<think>' }));
          m.chunk(at(20), delta({ content: 'hmm' }));
          m.chunk(at(30), delta({ content: '</think>' }));
        } else {
          m.chunk(at(10), delta({ [shape]: 'let' }));
          m.chunk(at(20), delta({ [shape]: ' me', content: '' }));
          m.chunk(at(30), delta({ [shape]: ' see', content: '\n\n' }));
        }
        m.chunk(at(40), delta({ content: 'Four' }));
        m.chunk(at(50), finish('stop'));
        m.end(at(51));
      });
      expect(result.ttft_s).toBeCloseTo(0.01, 9);
      expect(result.ttft_reasoning_s).toBeCloseTo(0.01, 9);
      expect(result.ttft_content_s).toBeCloseTo(0.04, 9);
      expect(result.think_s).toBeCloseTo(0.03, 9);
      expect(result.reply.content.trim()).toBe('Four');
      expect(result.reply.reasoning.length).toBeGreaterThan(0);
      expect(result.token_source).toBe('estimate');
    }
  });

  it('merges tool-call fragments by index and counts a tool fragment as the first token', () => {
    const { result } = run((m, at) => {
      m.chunk(at(10), delta({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'get_', arguments: '' } }] }));
      m.chunk(at(20), delta({ tool_calls: [{ index: 0, function: { name: 'time', arguments: '{"tz":' } }] }));
      m.chunk(at(30), delta({ tool_calls: [{ index: 1, id: 'c2', function: { name: 'x', arguments: '{}' } }] }));
      m.chunk(at(40), delta({ tool_calls: [{ index: 0, function: { arguments: '"UTC"}' } }] }));
      m.chunk(at(50), finish('tool_calls'));
      m.end(at(51));
    });
    expect(result.ttft_s).toBeCloseTo(0.01, 9);
    expect(result.ttft_content_s).toBeNull();
    expect(result.reply.tool_calls).toEqual([
      { id: 'c1', name: 'get_time', arguments: '{"tz":"UTC"}' },
      { id: 'c2', name: 'x', arguments: '{}' },
    ]);
    expect(result.finish_reason).toBe('tool_calls');
  });

  it('reads usage and llama.cpp timings from the finish chunk and prefers the server prefill time', () => {
    const { result } = run((m, at) => {
      m.chunk(at(200), delta({ content: 'a' }));
      m.chunk(at(210), delta({ content: 'b' }));
      m.chunk(at(220), delta({ content: 'c' }));
      m.chunk(
        at(221),
        finish('stop', {
          usage: { prompt_tokens: 120, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 20 } },
          timings: { cache_n: 20, prompt_n: 100, prompt_ms: 150, predicted_n: 3, predicted_ms: 30, predicted_per_second: 100 },
        }),
      );
      m.end(at(222));
    });
    expect(result.cached_tokens).toBe(20);
    expect(result.uncached_prompt_tokens).toBe(100);
    expect(result.prefill_source).toBe('server');
    expect(result.prefill_tps).toBeCloseTo(100 / 0.15, 6);
    expect(result.server_timings?.source).toBe('llamacpp');
    expect(result.server_comparison?.decode_ratio).toBeCloseTo(1, 6); // (3 − 1) / 0.02 s = 100
    expect(result.server_mismatch).toBe(false);
    expect(result.warnings.some((w) => w.includes('cache'))).toBe(true);
  });

  it('flags a server whose timings disagree by more than 20 % and usage off by more than 10 %', () => {
    const { result } = run((m, at) => {
      for (let i = 0; i < 20; i++) m.chunk(at(100 + i * 10), delta({ content: 'word' }));
      m.chunk(at(400), finish('stop', { timings: { predicted_n: 20, predicted_ms: 100, predicted_per_second: 200 } }));
      m.chunk(at(401), usageChunk(10, 40));
      m.end(at(402));
    });
    // 20 events carry 40 tokens, so N_first = 40 × 4/80 = 2: (40 − 2) / 0.19 s = 200, as the server says
    expect(result.decode_tps).toBeCloseTo(38 / 0.19, 6);
    expect(result.server_mismatch).toBe(false);
    expect(result.usage_mismatch).toBe(true); // 20 events × 1 estimated token vs 40 reported
    const slow = run((m, at) => {
      for (let i = 0; i < 20; i++) m.chunk(at(100 + i * 10), delta({ content: 'word' }));
      m.chunk(at(400), finish('stop', { timings: { predicted_n: 20, predicted_ms: 50, predicted_per_second: 400 } }));
      m.end(at(402));
    }).result;
    expect(slow.token_source).toBe('server');
    expect(slow.server_mismatch).toBe(true);
  });

  it('flags a response that names another model, and keeps the requested one', () => {
    const { result } = run((m, at) => {
      m.chunk(at(10), { model: 'tiny-1b', choices: [{ delta: { content: 'x' } }] });
      m.end(at(11));
    }, 'big-70b');
    expect(result.wrong_model).toBe(true);
    expect(result.served_model).toBe('tiny-1b');
    expect(result.requested_model).toBe('big-70b');
  });

  it('leaves decode undefined for fewer than two tokens and emits typed events in order', () => {
    const { result, events } = run((m, at) => {
      m.bytes(at(8));
      m.chunk(at(10), delta({ content: 'x' }));
      m.chunk(at(11), finish('length'));
      m.chunk(at(12), usageChunk(3, 1));
      m.end(at(13));
    });
    expect(result.decode_tps).toBeNull();
    expect(events.map((e) => e.type)).toEqual(['request-start', 'response-headers', 'text-delta', 'finish', 'usage', 'response-end']);
  });

  it('returns an in-stream error frame instead of treating it as data, and counts malformed frames', () => {
    const { m } = run(() => undefined);
    expect(m.chunk(1010, { error: { message: 'model crashed' } })).toBe('model crashed');
    m.malformed('{"unterminated');
    expect(m.result().events.malformed).toBe(1);
  });
});
