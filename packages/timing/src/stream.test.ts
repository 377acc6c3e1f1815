import { getEventListeners } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { CrucibleError, type FetchLike } from '@crucibleforge/core';
import { startSimEndpoint, type SimEndpoint, type SimModelOptions } from '@crucibleforge/sim-endpoint';
import { afterEach, describe, expect, it } from 'vitest';
import { createTimedCompleter } from './completer';
import { streamChat } from './stream';
import type { StreamChatOptions, TimingEvent } from './types';

const open: SimEndpoint[] = [];
async function sim(models: SimModelOptions[], apiKey?: string): Promise<SimEndpoint> {
  const s = await startSimEndpoint({ models, ...(apiKey ? { api_key: apiKey } : {}) });
  open.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const hello = { messages: [{ role: 'user' as const, content: 'Hello' }] };
const answer = { content: 'one two three four five six seven eight nine ten eleven twelve' };

function options(s: SimEndpoint, extra: Partial<StreamChatOptions> = {}): StreamChatOptions {
  return { baseUrl: s.url, model: 'm', request: hello, ...extra };
}

async function failure(promise: Promise<unknown>): Promise<CrucibleError> {
  try {
    await promise;
  } catch (error) {
    if (!CrucibleError.isInstance(error)) throw error;
    return error;
  }
  throw new Error('expected a failure');
}

/** A TCP server that accepts connections and never answers. */
async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('streamChat: events and results', () => {
  it('yields typed events in order and resolves the same reply', async () => {
    const s = await sim([{ id: 'm', decode_tps: 2000, answer }]);
    const stream = streamChat(options(s));
    const events: TimingEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('request-start');
    expect(types[1]).toBe('response-headers');
    expect(types.at(-1)).toBe('response-end');
    expect(types).toContain('usage');
    const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(text).toBe(answer.content);
    expect(result.reply.content).toBe(answer.content);
    const firstDelta = events.find((e) => e.type === 'text-delta');
    expect(firstDelta?.at_s).toBeCloseTo(result.ttft_s!, 9);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/only once/);
  });

  it('takes t0 when the request is handed to fetch, not when streamChat is called', async () => {
    const s = await sim([{ id: 'm', decode_tps: 2000, first_token_base_ms: 30, answer }]);
    let handedAt = Number.NaN;
    const fetchFn: FetchLike = (input, init) => {
      handedAt = performance.now();
      return fetch(input, init);
    };
    const stream = streamChat(options(s, { fetch: fetchFn, events: false }));
    // Block before the SDK gets to fetch: time before the hand-over must not count.
    const until = performance.now() + 40;
    while (performance.now() < until) {
      /* spin */
    }
    const result = await stream.result;
    const truthTtftMs = s.truth[0]!.first_token_ms! - handedAt;
    expect(Math.abs(result.ttft_s! * 1000 - truthTtftMs)).toBeLessThan(10);
  });

  it('reassembles tool calls and applies the reasoning switch for the provider', async () => {
    const s = await sim([
      {
        id: 'm',
        decode_tps: 2000,
        answer: (req) =>
          req.reasoning_off
            ? { tool_calls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }
            : { reasoning: 'hmm', content: 'thinking was on' },
      },
    ]);
    const result = await streamChat(options(s, { providerKind: 'deepseek', request: { ...hello, reasoning: 'off' } })).result;
    expect(s.requests[0]).toMatchObject({ thinking: { type: 'disabled' }, stream: true, stream_options: { include_usage: true } });
    expect(result.reply.tool_calls).toEqual([{ id: expect.any(String), name: 'get_weather', arguments: '{"city":"Oslo"}' }]);
    expect(result.finish_reason).toBe('tool_calls');
    expect(result.ttft_content_s).toBeNull();
    expect(result.ttft_s).not.toBeNull();
  });

  it('flags a response that names another model', async () => {
    const s = await sim([{ id: 'm', respond_as: 'some-other-model', decode_tps: 2000, answer }]);
    const result = await streamChat(options(s, { events: false })).result;
    expect(result.wrong_model).toBe(true);
    expect(result.served_model).toBe('some-other-model');
  });

  it('skips a malformed data frame, counts it and keeps measuring', async () => {
    const s = await sim([{ id: 'm', decode_tps: 2000, answer, faults: [{ kind: 'malformed_chunk', after_tokens: 3 }] }]);
    const result = await streamChat(options(s, { events: false })).result;
    expect(result.events.malformed).toBe(1);
    expect(result.reply.content).toBe(answer.content);
    expect(result.completion_tokens).toBe(s.truth[0]!.completion_tokens);
    expect(result.warnings.join(' ')).toMatch(/not JSON/);
  });

  it('backs core ChatCompleter with createTimedCompleter', async () => {
    const s = await sim([{ id: 'm', decode_tps: 2000, answer }]);
    const completer = createTimedCompleter({ baseUrl: s.url, model: 'm' });
    const reply = await completer.complete(hello);
    expect(reply).toMatchObject({ content: answer.content, finish_reason: 'stop', model: 'm' });
    expect(reply.usage.completion_tokens).toBe(s.truth[0]!.completion_tokens);
    const timed = await completer.completeTimed(hello);
    expect(timed.decode_tps).toBeGreaterThan(0);
  });
});

describe('streamChat: bad input and failures', () => {
  it('names the URL when nothing listens there', async () => {
    const server = await silentServer();
    await server.close(); // the port is now closed
    const error = await failure(streamChat({ baseUrl: server.url, model: 'm', request: hello }).result);
    expect(error.code).toBe('TIMING_UNREACHABLE');
    expect(error.message).toContain(server.url);
    expect(error.message).toMatch(/ECONNREFUSED/);
  });

  it('gives up on a silent server after the connect timeout, naming the URL', async () => {
    const server = await silentServer();
    try {
      const error = await failure(streamChat({ baseUrl: server.url, model: 'm', request: hello, timeouts: { connectMs: 150 } }).result);
      expect(error.code).toBe('TIMING_CONNECT_TIMEOUT');
      expect(error.message).toContain(server.url);
      expect(error.details.partial).toMatchObject({ headers_s: null, ttft_s: null });
    } finally {
      await server.close();
    }
  });

  it('reports a rejected key without echoing it', async () => {
    const s = await sim([{ id: 'm', answer }], 'right-key');
    const error = await failure(streamChat(options(s, { apiKey: 'wrong-secret-key' })).result);
    expect(error.code).toBe('TIMING_AUTH');
    expect(error.details.status).toBe(401);
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain('wrong-secret-key');
    const ok = await streamChat(options(s, { apiKey: 'right-key', events: false })).result;
    expect(ok.reply.content).toBe(answer.content);
  });

  it('lists the models the endpoint has for an unknown model', async () => {
    const s = await sim([{ id: 'alpha' }, { id: 'beta' }]);
    const error = await failure(streamChat({ baseUrl: s.url, model: 'gamma', request: hello }).result);
    expect(error.code).toBe('TIMING_UNKNOWN_MODEL');
    expect(error.message).toContain('alpha, beta');
    expect(error.details.available_models).toEqual(['alpha', 'beta']);
  });

  it('names the content type of a reply that is not an event stream', async () => {
    const s = await sim([{ id: 'm', faults: [{ kind: 'not_sse' }] }]);
    const error = await failure(streamChat(options(s)).result);
    expect(error.code).toBe('TIMING_NOT_SSE');
    expect(error.message).toContain('text/html');
  });

  it('marks 429 retryable with its retry-after, and 500 retryable', async () => {
    const s = await sim([
      {
        id: 'm',
        faults: [
          { kind: 'status', status: 429, retry_after_s: 7 },
          { kind: 'status', status: 500 },
        ],
      },
    ]);
    const limited = await failure(streamChat(options(s)).result);
    expect(limited).toMatchObject({ code: 'TIMING_HTTP', retryable: true, details: { status: 429, retryAfterS: 7 } });
    const crashed = await failure(streamChat(options(s)).result);
    expect(crashed).toMatchObject({ code: 'TIMING_HTTP', retryable: true, details: { status: 500 } });
  });

  it('turns a stall into a gap timeout that keeps the partial timings', async () => {
    const s = await sim([{ id: 'm', decode_tps: 2000, answer, faults: [{ kind: 'stall', after_tokens: 4, stall_ms: 3000 }] }]);
    const error = await failure(streamChat(options(s, { timeouts: { gapMs: 150 } })).result);
    expect(error.code).toBe('TIMING_GAP_TIMEOUT');
    const partial = error.details.partial as { token_events: number; ttft_s: number | null; content_chars: number };
    expect(partial.token_events).toBe(4);
    expect(partial.ttft_s).not.toBeNull();
    expect(partial.content_chars).toBeGreaterThan(0);
  });

  it('times out waiting for the first token even while comments arrive', async () => {
    const s = await sim([{ id: 'm', first_token_base_ms: 2000, keep_alive_ms: 20, answer }]);
    const error = await failure(streamChat(options(s, { timeouts: { firstTokenMs: 200 } })).result);
    expect(error.code).toBe('TIMING_FIRST_TOKEN_TIMEOUT');
    expect(error.details.partial).toMatchObject({ ttft_s: null, token_events: 0 });
    expect((error.details.partial as { ttfb_s: number | null }).ttfb_s).not.toBeNull();
  });

  it('enforces the total timeout', async () => {
    const s = await sim([{ id: 'm', decode_tps: 20, answer }]);
    const error = await failure(streamChat(options(s, { timeouts: { totalMs: 200 } })).result);
    expect(error.code).toBe('TIMING_TOTAL_TIMEOUT');
  });

  it('reports a reset mid-stream as a stream error with partial timings', async () => {
    const s = await sim([{ id: 'm', decode_tps: 200, answer, faults: [{ kind: 'reset', after_tokens: 3 }] }]);
    const error = await failure(streamChat(options(s)).result);
    expect(error.code).toBe('TIMING_STREAM_ERROR');
    expect(error.retryable).toBe(false);
    // The sim destroys the socket right after writing token 3, so the last write may be lost.
    const partial = error.details.partial as { token_events: number; ttft_s: number | null };
    expect(partial.token_events).toBeGreaterThanOrEqual(1);
    expect(partial.token_events).toBeLessThanOrEqual(3);
    expect(partial.ttft_s).not.toBeNull();
  });

  it('cancels the HTTP request when the consumer leaves the loop', async () => {
    const s = await sim([{ id: 'm', decode_tps: 50, answer }]);
    const stream = streamChat(options(s));
    for await (const event of stream) if (event.type === 'text-delta') break;
    const error = await failure(stream.result);
    expect(error.code).toBe('TIMING_ABORTED');
    await expect.poll(() => s.truth[0]?.aborted).toBe(true);
    expect(s.truth[0]!.completion_tokens).toBeLessThan(12);
  });

  it('honours an AbortSignal, and the iterator rethrows the typed error', async () => {
    const s = await sim([{ id: 'm', decode_tps: 50, answer }]);
    const controller = new AbortController();
    const stream = streamChat(options(s, { signal: controller.signal }));
    const seen: string[] = [];
    const loop = (async () => {
      for await (const event of stream) {
        seen.push(event.type);
        if (event.type === 'text-delta') controller.abort();
      }
    })();
    const error = await failure(loop);
    expect(error.code).toBe('TIMING_ABORTED');
    expect((await failure(stream.result)).code).toBe('TIMING_ABORTED');
    expect(seen).toContain('text-delta');
  });

  it('leaves no listeners on a long-lived signal after requests finish or fail', async () => {
    const s = await sim([{ id: 'm', decode_tps: 2000, answer, faults: [undefined, { kind: 'status', status: 500 }] }]);
    const controller = new AbortController();
    await streamChat(options(s, { signal: controller.signal, events: false })).result;
    await failure(streamChat(options(s, { signal: controller.signal, events: false })).result);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects bad options at once, naming the field', () => {
    expect(() => streamChat({ baseUrl: 'localhost:1234', model: 'm', request: hello })).toThrow(/baseUrl/);
    expect(() => streamChat({ baseUrl: 'http://x/v1', model: ' ', request: hello })).toThrow(/model/);
  });
});
