import { CrucibleError } from '@crucibleforge/core';
import type { PartialTimings } from './types';

/** Every error code this package throws. */
export type TimingErrorCode =
  | 'TIMING_CONNECT_TIMEOUT'
  | 'TIMING_FIRST_TOKEN_TIMEOUT'
  | 'TIMING_GAP_TIMEOUT'
  | 'TIMING_TOTAL_TIMEOUT'
  | 'TIMING_UNREACHABLE'
  /** Accepted, then the connection dropped before a response (ECONNRESET, socket closed). Retryable. */
  | 'TIMING_CONNECTION_RESET'
  | 'TIMING_AUTH'
  | 'TIMING_UNKNOWN_MODEL'
  | 'TIMING_NOT_SSE'
  | 'TIMING_HTTP'
  | 'TIMING_STREAM_ERROR'
  | 'TIMING_ABORTED'
  | 'TIMING_BAD_OPTIONS'
  | 'TIMING_GGUF';

export const TIMING_ERROR_CODES: readonly TimingErrorCode[] = [
  'TIMING_CONNECT_TIMEOUT',
  'TIMING_FIRST_TOKEN_TIMEOUT',
  'TIMING_GAP_TIMEOUT',
  'TIMING_TOTAL_TIMEOUT',
  'TIMING_UNREACHABLE',
  'TIMING_CONNECTION_RESET',
  'TIMING_AUTH',
  'TIMING_UNKNOWN_MODEL',
  'TIMING_NOT_SSE',
  'TIMING_HTTP',
  'TIMING_STREAM_ERROR',
  'TIMING_ABORTED',
  'TIMING_BAD_OPTIONS',
  'TIMING_GGUF',
];

export type TimingError = CrucibleError<TimingErrorCode>;

export interface TimingErrorDetails {
  url?: string;
  model?: string;
  partial?: PartialTimings;
  status?: number;
  retryAfterS?: number | null;
  [key: string]: unknown;
}

export function timingError(
  code: TimingErrorCode,
  message: string,
  options: { cause?: unknown; retryable?: boolean; details?: TimingErrorDetails } = {},
): TimingError {
  return new CrucibleError<TimingErrorCode>(code, message, {
    ...(options.cause === undefined ? {} : { cause: options.cause }),
    retryable: options.retryable ?? false,
    details: options.details ?? {},
  });
}

/** True for a CrucibleError whose code is one of this package's. */
export function isTimingError(value: unknown): value is TimingError {
  return CrucibleError.isInstance(value) && (TIMING_ERROR_CODES as readonly string[]).includes(value.code);
}

/** Errors that no later request to the same endpoint and model can fix (the speed benchmark stops on them). */
export const FATAL_TIMING_CODES: readonly TimingErrorCode[] = [
  'TIMING_UNREACHABLE',
  'TIMING_AUTH',
  'TIMING_UNKNOWN_MODEL',
  'TIMING_NOT_SSE',
  'TIMING_CONNECT_TIMEOUT',
  'TIMING_ABORTED',
  'TIMING_BAD_OPTIONS',
];

/** `retry-after` (seconds or an HTTP date) or `retry-after-ms`, in seconds; null when absent. */
export function retryAfterSeconds(headers: Headers | undefined, nowMs: number = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && Number.isFinite(Number(ms))) return Number(ms) / 1000;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - nowMs) / 1000);
}
