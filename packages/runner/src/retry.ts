import type { RandomSource, Sleep } from '@crucibleforge/core';
import { failureClassOf, isTimingError, type EndpointFailureClass } from '@crucibleforge/timing';

/** How a failed request is classed in a row's `error_class` (the streaming client's classes). */
export type EndpointErrorClass = EndpointFailureClass;

export interface ClassifiedFailure {
  errorClass: EndpointErrorClass;
  /** Safe to send again: the endpoint said so (429/5xx) or the connection dropped before any token. */
  retryable: boolean;
  retryAfterS: number | null;
  message: string;
}

/**
 * Reads a thrown request error into a class: a streaming-client error by its code (timing's table and
 * `failureClassOf`, typed details, no pattern matching); anything else is `aborted` (an AbortError) or `other`.
 */
export function classifyFailure(error: unknown): ClassifiedFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (!isTimingError(error)) {
    const aborted = error instanceof Error && error.name === 'AbortError';
    return { errorClass: aborted ? 'aborted' : 'other', retryable: false, retryAfterS: null, message };
  }
  const errorClass = failureClassOf(error);
  const retryAfterS = error.code === 'TIMING_HTTP' ? error.details.retryAfterS ?? null : null;
  // Tokens already streamed make a resend a different measurement: only failures before the stream count.
  const partial = 'partial' in error.details ? error.details.partial : undefined;
  const streamed = (partial?.token_events ?? 0) > 0;
  const classRetryable = errorClass === 'rate-limited' || errorClass === 'server-error' || errorClass === 'reset';
  return {
    errorClass,
    retryable: !streamed && (error.retryable || classRetryable) && errorClass !== 'aborted' && errorClass !== 'auth',
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

export type Attempted<T> = { ok: true; value: T; attempts: number } | { ok: false; failure: ClassifiedFailure; attempts: number };

/** Calls `fn` until it succeeds, a failure is not retryable, or attempts run out. Never throws for request errors. */
export async function withRetries<T>(fn: () => Promise<T>, policy: RetryPolicy, world: RetryWorld): Promise<Attempted<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, value: await fn(), attempts: attempt };
    } catch (error) {
      const failure = classifyFailure(error);
      if (world.signal?.aborted) return { ok: false, failure: { ...failure, errorClass: 'aborted', retryable: false }, attempts: attempt };
      if (!failure.retryable || attempt >= policy.attempts) return { ok: false, failure, attempts: attempt };
      const waitMs = backoffMs(policy, attempt, failure, world.random);
      world.onRetry?.({ attempt, waitMs, failure });
      try {
        await world.sleep(waitMs, world.signal);
      } catch {
        return { ok: false, failure: { ...failure, errorClass: 'aborted', retryable: false }, attempts: attempt };
      }
    }
  }
}
