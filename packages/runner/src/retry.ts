import { CrucibleError, type AttemptFault, type RandomSource, type Sleep, type StreamDamage } from '@crucibleforge/core';

/**
 * How a failed request is classed in a row's `error_class`. Every class is the endpoint's (or the run's),
 * never the model's: such a row is an error, not graded.
 */
export type EndpointErrorClass =
  /** 429. */
  | 'rate-limited'
  /** 5xx, or an error frame inside the stream. */
  | 'server-error'
  /** Another 4xx (a bad request, an unknown model). */
  | 'rejected'
  /** 401 / 403. */
  | 'auth'
  /** The connection was accepted, then dropped (before a response or mid-stream). */
  | 'reset'
  /** No response headers in time, or the whole request took too long. */
  | 'timeout'
  /** Connected, then silence: no first token, or no next token, in time. */
  | 'stall'
  /** Nothing listens (connection refused, DNS). */
  | 'unreachable'
  /** The stream broke its framing: events that are not JSON, bytes that are not UTF-8, an end without finish, not SSE. */
  | 'bad-stream'
  /** Cut off by a stop. */
  | 'aborted'
  | 'other';

export interface ClassifiedFailure {
  errorClass: EndpointErrorClass;
  /** Safe to send again: the endpoint said so (429/5xx), the connection dropped before any token, or the stream was damaged. */
  retryable: boolean;
  retryAfterS: number | null;
  message: string;
  /** For `bad-stream`: what the damaged stream lost. */
  stream?: StreamDamage;
}

function numberOr(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function byStatus(status: number): EndpointErrorClass {
  if (status === 429) return 'rate-limited';
  if (status === 401 || status === 403) return 'auth';
  if (status >= 500) return 'server-error';
  return status === 408 ? 'timeout' : 'rejected';
}

/** The class of one error code (the timing client's, and the runner's own); unknown codes fall back to `other`. */
function byCode(code: string, details: Record<string, unknown>): EndpointErrorClass {
  switch (code) {
    case 'TIMING_ABORTED':
      return 'aborted';
    case 'TIMING_CONNECT_TIMEOUT':
    case 'TIMING_TOTAL_TIMEOUT':
      return 'timeout';
    case 'TIMING_FIRST_TOKEN_TIMEOUT':
    case 'TIMING_GAP_TIMEOUT':
      return 'stall';
    case 'TIMING_CONNECTION_RESET':
      return 'reset';
    case 'TIMING_UNREACHABLE':
      return 'unreachable';
    case 'TIMING_STREAM_ERROR':
      // a transport break mid-stream carries the system code; an error frame inside the stream does not
      return typeof details['system_code'] === 'string' ? 'reset' : 'server-error';
    case 'TIMING_NOT_SSE':
    case 'RUNNER_BAD_STREAM':
      return 'bad-stream';
    case 'TIMING_AUTH':
      return 'auth';
    case 'TIMING_UNKNOWN_MODEL':
      return 'rejected';
    default:
      return 'other';
  }
}

const RETRYABLE_CLASSES: ReadonlySet<EndpointErrorClass> = new Set(['rate-limited', 'server-error', 'reset', 'bad-stream']);

/** Reads a thrown request error (a timing-client CrucibleError or anything else) into a class. */
export function classifyFailure(error: unknown): ClassifiedFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (!CrucibleError.isInstance(error)) {
    const aborted = error instanceof Error && error.name === 'AbortError';
    return { errorClass: aborted ? 'aborted' : 'other', retryable: false, retryAfterS: null, message };
  }
  const d = error.details;
  const status = numberOr(d['status']);
  const retryAfterS = numberOr(d['retryAfterS']) ?? numberOr(d['retry_after_s']);
  // Tokens already streamed make a resend a different measurement: only failures before the stream count,
  // except a damaged stream, whose reply is thrown away whole.
  const partial = d['partial'] as { token_events?: unknown } | undefined;
  const streamed = d['streamStarted'] === true || (numberOr(partial?.token_events) ?? 0) > 0;
  const errorClass = status !== null ? byStatus(status) : byCode(error.code, d);
  const retryable =
    (errorClass === 'bad-stream' || !streamed) && (error.retryable || RETRYABLE_CLASSES.has(errorClass)) && errorClass !== 'aborted' && errorClass !== 'auth';
  const stream = d['stream'] as StreamDamage | undefined;
  return { errorClass, retryable, retryAfterS, message, ...(errorClass === 'bad-stream' && stream ? { stream } : {}) };
}

export interface RetryPolicy {
  /** Attempts in all, the first included (default 4). */
  attempts: number;
  /** First backoff (default 1 000 ms), doubled each time, ±20 % jitter. */
  baseMs: number;
  /** No single wait is longer (default 60 000 ms), Retry-After included. */
  capMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseMs: 1000, capMs: 60_000 };

export interface RetryWorld {
  sleep: Sleep;
  random: RandomSource;
  signal?: AbortSignal | undefined;
  onRetry?: (info: { attempt: number; waitMs: number; failure: ClassifiedFailure }) => void;
}

/** The wait before attempt `attempt + 1`: Retry-After when the server gave one, else exponential backoff. */
export function backoffMs(policy: RetryPolicy, attempt: number, failure: ClassifiedFailure, random: RandomSource): number {
  const exp = policy.baseMs * 2 ** (attempt - 1) * (0.8 + 0.4 * random());
  const hinted = failure.retryAfterS === null ? 0 : failure.retryAfterS * 1000;
  return Math.min(policy.capMs, Math.max(exp, hinted));
}

/** What the attempts of one call met: every fault (with the wait after it) and the damage of damaged streams. */
export interface AttemptTrace {
  attempts: number;
  faults: AttemptFault[];
  /** Seconds waited between attempts. */
  wait_s: number;
  /** Summed over the damaged streams among the attempts. */
  stream: StreamDamage | null;
}

export type Attempted<T> = ({ ok: true; value: T } | { ok: false; failure: ClassifiedFailure }) & AttemptTrace;

function addDamage(total: StreamDamage | null, more: StreamDamage | undefined): StreamDamage | null {
  if (!more) return total;
  return {
    dropped_events: (total?.dropped_events ?? 0) + more.dropped_events,
    decode_errors: (total?.decode_errors ?? 0) + more.decode_errors,
    unexpected_end: (total?.unexpected_end ?? false) || more.unexpected_end,
  };
}

/** Calls `fn` until it succeeds, a failure is not retryable, or attempts run out. Never throws for request errors. */
export async function withRetries<T>(fn: () => Promise<T>, policy: RetryPolicy, world: RetryWorld): Promise<Attempted<T>> {
  const trace: AttemptTrace = { attempts: 0, faults: [], wait_s: 0, stream: null };
  const failed = (failure: ClassifiedFailure): Attempted<T> => {
    trace.faults.push({ class: failure.errorClass, message: failure.message, wait_s: null });
    return { ok: false, failure, ...trace };
  };
  for (let attempt = 1; ; attempt++) {
    trace.attempts = attempt;
    try {
      return { ok: true, value: await fn(), ...trace };
    } catch (error) {
      const failure = classifyFailure(error);
      trace.stream = addDamage(trace.stream, failure.stream);
      if (world.signal?.aborted) return failed({ ...failure, errorClass: 'aborted', retryable: false });
      if (!failure.retryable || attempt >= policy.attempts) return failed(failure);
      const waitMs = backoffMs(policy, attempt, failure, world.random);
      trace.faults.push({ class: failure.errorClass, message: failure.message, wait_s: Math.round(waitMs) / 1000 });
      trace.wait_s = Math.round((trace.wait_s + waitMs / 1000) * 1000) / 1000;
      world.onRetry?.({ attempt, waitMs, failure });
      try {
        await world.sleep(waitMs, world.signal);
      } catch {
        trace.faults.pop();
        return failed({ ...failure, errorClass: 'aborted', retryable: false });
      }
    }
  }
}
