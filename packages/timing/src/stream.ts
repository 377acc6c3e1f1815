import { CrucibleError, SseParser, systemClock, type FetchLike } from '@crucibleforge/core';
import { isTimingError, timingError, type TimingError } from './errors';
import { requestError, transportError, type ErrorContext } from './http-errors';
import { Measurement } from './measure';
import { EventQueue } from './queue';
import { buildRequestBody } from './request';
import { openStream, sdkClient } from './sdk';
import { DEFAULT_TIMEOUTS, type StreamChatOptions, type TimedCompletion, type TimedStream, type TimingEvent } from './types';
import { Watchdog, type TimeoutKind } from './watchdog';

function validate(options: StreamChatOptions): void {
  let url: URL | undefined;
  try {
    url = new URL(options.baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw timingError('TIMING_BAD_OPTIONS', `baseUrl must be an http(s) URL, got "${options.baseUrl}"`);
  }
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw timingError('TIMING_BAD_OPTIONS', 'model must be a non-empty string');
  }
  if (!Array.isArray(options.request?.messages)) {
    throw timingError('TIMING_BAD_OPTIONS', 'request.messages must be an array of chat messages');
  }
}

function isEventStream(contentType: string | null): boolean {
  return contentType === null || /text\/event-stream/i.test(contentType);
}

/** Parses one `data:` payload; tolerates servers that put several JSON objects on consecutive lines. */
function parseData(data: string): { chunks: Record<string, unknown>[]; bad: boolean } {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? { chunks: [value as Record<string, unknown>], bad: false } : { chunks: [], bad: true };
  } catch {
    if (!data.includes('\n')) return { chunks: [], bad: true };
    const chunks: Record<string, unknown>[] = [];
    let bad = false;
    for (const line of data.split('\n')) {
      try {
        chunks.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        bad = true;
      }
    }
    return { chunks, bad };
  }
}

/**
 * Streams one chat completion from an OpenAI-compatible endpoint and times it. The returned object is
 * an async iterable of typed events (iterate at most once; leaving the loop cancels the request) and
 * has `result`, the promise of the whole measurement. t0 is taken when the request is handed to fetch.
 */
export function streamChat(options: StreamChatOptions): TimedStream {
  validate(options);
  const clock = options.clock ?? systemClock;
  const fetchFn: FetchLike = options.fetch ?? globalThis.fetch;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const url = `${baseUrl}/chat/completions`;
  const controller = new AbortController();
  const queue = options.events === false ? null : new EventQueue<TimingEvent>(() => abort('the consumer left the event loop'));
  const m = new Measurement(options.model, clock.now(), queue ? (event) => queue.push(event) : null);
  let streamStarted = false;

  const ctx = (): ErrorContext => ({
    url,
    baseUrl,
    model: options.model,
    apiKey: options.apiKey,
    fetch: fetchFn,
    partial: m.partial(clock.now()),
    streamStarted,
  });
  const fail = (error: TimingError) => {
    if (!controller.signal.aborted) controller.abort(error);
  };
  function abort(reason = 'the request was cancelled'): void {
    fail(timingError('TIMING_ABORTED', `${reason} (${url})`, { details: { url, model: options.model, partial: m.partial(clock.now()) } }));
  }
  const onTimeout = (kind: TimeoutKind) => {
    const p = m.partial(clock.now());
    const messages: Record<TimeoutKind, ['TIMING_CONNECT_TIMEOUT' | 'TIMING_FIRST_TOKEN_TIMEOUT' | 'TIMING_GAP_TIMEOUT' | 'TIMING_TOTAL_TIMEOUT', number, string]> = {
      connect: ['TIMING_CONNECT_TIMEOUT', timeouts.connectMs, `no response from ${url} within ${timeouts.connectMs} ms`],
      first_token: ['TIMING_FIRST_TOKEN_TIMEOUT', timeouts.firstTokenMs, `no token from "${options.model}" at ${url} within ${timeouts.firstTokenMs} ms`],
      gap: ['TIMING_GAP_TIMEOUT', timeouts.gapMs, `the stream from ${url} stalled: no token for ${timeouts.gapMs} ms after ${p.token_events} token events`],
      total: ['TIMING_TOTAL_TIMEOUT', timeouts.totalMs, `the request to ${url} took longer than ${timeouts.totalMs} ms`],
    };
    const [code, ms, message] = messages[kind];
    fail(timingError(code, message, { retryable: kind === 'connect' || kind === 'first_token', details: { url, model: options.model, partial: p, timeout_ms: ms } }));
  };
  const watchdog = new Watchdog(timeouts, onTimeout);
  const abortReason = (): TimingError | null => {
    const reason: unknown = controller.signal.reason;
    return controller.signal.aborted && CrucibleError.isInstance(reason) ? (reason as TimingError) : null;
  };
  const userSignals = [options.signal, options.request.signal].filter((s): s is AbortSignal => s !== undefined);
  const onUserAbort = () => abort();
  for (const signal of userSignals) {
    if (signal.aborted) abort();
    else signal.addEventListener('abort', onUserAbort, { once: true });
  }
  const settle = () => {
    watchdog.stop();
    // A long-lived signal (a CLI's Ctrl-C) serves many requests: do not pile up listeners on it.
    for (const signal of userSignals) signal.removeEventListener('abort', onUserAbort);
  };

  const timedFetch: FetchLike = (input, init) => {
    m.obs.t0 = clock.now();
    watchdog.requestSent();
    return fetchFn(input, init);
  };

  async function readBody(response: Response): Promise<void> {
    if (!response.body) return;
    const reader = response.body.getReader();
    // Fatal, so bytes that are not UTF-8 are noticed (and counted) instead of silently replaced.
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const lenient = new TextDecoder('utf-8');
    const decode = (bytes?: Uint8Array): string => {
      try {
        return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
      } catch {
        m.decodeError();
        return bytes === undefined ? '' : lenient.decode(bytes);
      }
    };
    let at = 0;
    let done = false;
    let streamError: string | null = null;
    const parser = new SseParser({
      comment: (text) => m.comment(at, text),
      data: (data) => {
        if (done || streamError !== null) return;
        if (data === '[DONE]') {
          done = true;
          return;
        }
        const { chunks, bad } = parseData(data);
        if (bad) m.malformed(data);
        for (const chunk of chunks) {
          const error = m.chunk(at, chunk);
          if (error !== null) {
            streamError = error;
            return;
          }
        }
      },
    });
    const cancel = () => reader.cancel().catch(() => undefined);
    controller.signal.addEventListener('abort', cancel, { once: true });
    try {
      for (;;) {
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          read = await reader.read();
        } catch (error) {
          throw abortReason() ?? transportError(error, ctx(), 'body');
        }
        const reason = abortReason();
        if (reason) throw reason;
        if (read.done) break;
        at = clock.now();
        m.bytes(at);
        const before = m.obs.tokenEvents;
        parser.push(decode(read.value));
        if (m.obs.tokenEvents !== before) {
          watchdog.token();
          streamStarted = true;
        }
        if (streamError !== null) {
          throw timingError('TIMING_STREAM_ERROR', `${url} sent an error inside the stream: ${streamError}`, {
            retryable: !streamStarted,
            details: { url, model: options.model, partial: m.partial(at) },
          });
        }
        if (done) {
          void cancel();
          break;
        }
      }
      if (!done) {
        parser.push(decode());
        parser.end();
      }
      m.bodyEnded(done);
    } finally {
      controller.signal.removeEventListener('abort', cancel);
    }
  }

  async function run(): Promise<TimedCompletion> {
    const body = buildRequestBody(options.model, options.request, options.providerKind, options.extraBody);
    const client = sdkClient(baseUrl, options.apiKey, timedFetch, timeouts.totalMs + 60_000);
    let response: Response;
    try {
      response = await openStream(client, body, controller.signal, Boolean(options.apiKey));
    } catch (error) {
      throw abortReason() ?? (await requestError(error, ctx()));
    }
    const contentType = response.headers.get('content-type');
    m.headers(clock.now(), response.status, contentType);
    watchdog.headersReceived();
    if (!isEventStream(contentType)) {
      const text = await response.text().catch(() => '');
      throw timingError(
        'TIMING_NOT_SSE',
        `${url} answered with content type "${contentType}" instead of an event stream (text/event-stream)`,
        { details: { url, model: options.model, content_type: contentType, body_start: text.slice(0, 200), partial: m.partial(clock.now()) } },
      );
    }
    await readBody(response);
    m.end(clock.now());
    return m.result();
  }

  const result = run().then(
    (completion) => {
      settle();
      queue?.close();
      return completion;
    },
    (error: unknown) => {
      settle();
      const typed =
        abortReason() ??
        (isTimingError(error)
          ? error
          : timingError('TIMING_STREAM_ERROR', `unexpected failure on the stream from ${url}: ${error instanceof Error ? error.message : String(error)}`, {
              cause: error,
              details: { url, model: options.model, partial: m.partial(clock.now()) },
            }));
      if (!controller.signal.aborted) controller.abort(typed);
      queue?.close(typed);
      throw typed;
    },
  );
  result.catch(() => undefined); // the caller may only iterate; the error reaches them there

  return {
    result,
    abort: (reason?: string) => abort(reason),
    [Symbol.asyncIterator]() {
      if (!queue) throw timingError('TIMING_BAD_OPTIONS', 'this stream was created with events: false and cannot be iterated');
      return queue.iterator();
    },
  };
}
