import { CrucibleError, type AttemptFault, type RandomSource, type Sleep, type StreamDamage } from '@crucibleforge/core';
import { failureClassOf, isTimingError, type EndpointFailureClass } from '@crucibleforge/timing';
import { isRunnerError } from './errors';

/** How a failed request is classed in a row's `error_class` (the streaming client's classes). */
export type EndpointErrorClass = EndpointFailureClass;

export interface ClassifiedFailure {
  errorClass: EndpointErrorClass;
  /** Safe to send again: the endpoint said so (429/5xx), the connection dropped before any token, or the stream was damaged. */
  retryable: boolean;
  retryAfterS: number | null;
  message: string;
  /** For `bad-stream`: what the damaged stream lost. */
  stream?: StreamDamage;
}

const RETRYABLE_CLASSES: ReadonlySet<EndpointErrorClass> = new Set(['rate-limited', 'server-error', 'reset', 'bad-stream']);

/**
 * Reads a thrown request error into a class: a streaming-client error by its code (timing's table and
 * `failureClassOf`, typed details, no pattern matching); the runner's RUNNER_BAD_STREAM is `bad-stream`;
 * anything else is `aborted` (cancelled, or an AbortError) or `other`.
 */
export function classifyFailure(error: unknown): ClassifiedFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (isRunnerError(error, 'RUNNER_BAD_STREAM')) {
    // a damaged stream's reply is thrown away whole, so a resend is the same measurement
    const stream = error.details['stream'] as StreamDamage | undefined;
    return { errorClass: 'bad-stream', retryable: true, retryAfterS: null, message, ...(stream ? { stream } : {}) };
  }
  if (!isTimingError(error)) {
    const aborted = (error instanceof Error && error.name === 'AbortError') || (CrucibleError.isInstance(error) && error.kind === 'cancelled');
    return { errorClass: aborted ? 'aborted' : 'other', retryable: false, retryAfterS: null, message };
  }
  const errorClass = failureClassOf(error);
  const retryAfterS = error.code === 'TIMING_HTTP' ? error.details.retryAfterS ?? null : null;
  // Tokens already streamed make a resend a different measurement: only failures before the stream count.
  const partial = 'partial' in error.details ? error.details.partial : undefined;
  const streamed = (partial?.token_events ?? 0) > 0;
  return {
    errorClass,
    retryable: !streamed && (error.retryable || RETRYABLE_CLASSES.has(errorClass)) && errorClass !== 'aborted' && errorClass !== 'auth',
    retryAfterS,
    message,
  };
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
