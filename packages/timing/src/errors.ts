import { CrucibleError, isTableError, type ErrorTable } from '@crucibleforge/core';
import type { PartialTimings } from './types';

/** Every error code of the streaming client. */
export type TimingErrorCode =
  | 'TIMING_CONNECT_TIMEOUT'
  | 'TIMING_FIRST_TOKEN_TIMEOUT'
  | 'TIMING_GAP_TIMEOUT'
  | 'TIMING_TOTAL_TIMEOUT'
  | 'TIMING_UNREACHABLE'
  /** Accepted, then the connection dropped before a response (ECONNRESET, socket closed). Retryable. */
  | 'TIMING_CONNECTION_RESET'
  /** Accepted, then the connection dropped before a response (ECONNRESET, socket closed). Retryable. */
  | 'TIMING_CONNECTION_RESET'
  | 'TIMING_AUTH'
  | 'TIMING_UNKNOWN_MODEL'
  | 'TIMING_NOT_SSE'
  | 'TIMING_HTTP'
  | 'TIMING_STREAM_ERROR'
  | 'TIMING_ABORTED'
  | 'TIMING_BAD_OPTIONS';

/** What every request error keeps: where it went and the timings so far. */
interface RequestDetails {
  url: string;
  model: string;
  partial: PartialTimings;
}

/** The typed `details` of each code. */
export interface TimingErrorDetailsMap {
  TIMING_CONNECT_TIMEOUT: RequestDetails & { timeout_ms: number };
  TIMING_FIRST_TOKEN_TIMEOUT: RequestDetails & { timeout_ms: number };
  TIMING_GAP_TIMEOUT: RequestDetails & { timeout_ms: number };
  TIMING_TOTAL_TIMEOUT: RequestDetails & { timeout_ms: number };
  /** `system_code`: ECONNREFUSED, ENOTFOUND, ECONNRESET, … when Node named one. */
  TIMING_UNREACHABLE: RequestDetails & { system_code: string | null };
  TIMING_CONNECTION_RESET: RequestDetails & { system_code: string | null };
  TIMING_AUTH: RequestDetails & { status: number };
  TIMING_UNKNOWN_MODEL: RequestDetails & { status: number; available_models: string[] };
  TIMING_NOT_SSE: RequestDetails & { content_type: string | null; body_start: string };
  TIMING_HTTP: RequestDetails & { status: number; retryAfterS: number | null };
  /** `system_code` is set when the connection broke (not an error frame of the server). */
  TIMING_STREAM_ERROR: RequestDetails & { system_code?: string | null };
  TIMING_ABORTED: RequestDetails;
  TIMING_BAD_OPTIONS: Record<string, never>;
}

/** A streaming-client error of one of `Code`s, its `details` typed by the code. */
export type TimingError<Code extends TimingErrorCode = TimingErrorCode> = {
  [K in Code]: CrucibleError<K, TimingErrorDetailsMap[K]>;
}[Code];

/** Kind and default retryability of every code (a request's own error may say more: a 5xx is retryable, a 404 not). */
export const TIMING_ERRORS = {
  TIMING_CONNECT_TIMEOUT: { kind: 'endpoint', retryable: true },
  TIMING_FIRST_TOKEN_TIMEOUT: { kind: 'endpoint', retryable: true },
  TIMING_GAP_TIMEOUT: { kind: 'endpoint', retryable: false },
  TIMING_TOTAL_TIMEOUT: { kind: 'endpoint', retryable: false },
  TIMING_UNREACHABLE: { kind: 'endpoint', retryable: false },
  TIMING_CONNECTION_RESET: { kind: 'endpoint', retryable: true },
  TIMING_AUTH: { kind: 'endpoint', retryable: false },
  TIMING_UNKNOWN_MODEL: { kind: 'endpoint', retryable: false },
  TIMING_NOT_SSE: { kind: 'endpoint', retryable: false },
  TIMING_HTTP: { kind: 'endpoint', retryable: false },
  TIMING_STREAM_ERROR: { kind: 'endpoint', retryable: false },
  TIMING_ABORTED: { kind: 'cancelled', retryable: false },
  TIMING_BAD_OPTIONS: { kind: 'config', retryable: false },
} as const satisfies ErrorTable<TimingErrorCode>;

export const TIMING_ERROR_CODES = Object.keys(TIMING_ERRORS) as TimingErrorCode[];

export function timingError<Code extends TimingErrorCode>(
  code: Code,
  message: string,
  options: { cause?: unknown; retryable?: boolean; details?: TimingErrorDetailsMap[Code] } = {},
): TimingError<Code> {
  return new CrucibleError<Code, TimingErrorDetailsMap[Code]>(code, message, {
    ...(options.cause === undefined ? {} : { cause: options.cause }),
    kind: TIMING_ERRORS[code].kind,
    retryable: options.retryable ?? TIMING_ERRORS[code].retryable,
    details: options.details ?? ({} as TimingErrorDetailsMap[Code]),
  }) as TimingError<Code>;
}

/** True for a streaming-client error (one of `codes` when given); narrows `details` by code. */
export function isTimingError<Code extends TimingErrorCode = TimingErrorCode>(value: unknown, ...codes: Code[]): value is TimingError<Code> {
  return isTableError(TIMING_ERRORS, value, codes);
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

/**
 * How a failed request is classed in a result row's `error_class`. Every class is the endpoint's (or the
 * run's), never the model's: such a row is an error, not graded.
 */
export type EndpointFailureClass =
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

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);

/** Whether a system error code (ECONNRESET, …) means the connection was reset rather than never made. */
export function isResetCode(code: string | null | undefined): boolean {
  return code !== null && code !== undefined && RESET_CODES.has(code);
}

/** The row class of a streaming-client error, decided by its code (and the HTTP status or system code it carries). */
export function failureClassOf(error: TimingError): EndpointFailureClass {
  switch (error.code) {
    case 'TIMING_HTTP': {
      const status = error.details.status;
      if (status === 429) return 'rate-limited';
      if (status === 401 || status === 403) return 'auth';
      if (status >= 500) return 'server-error';
      return status === 408 ? 'timeout' : 'rejected';
    }
    case 'TIMING_AUTH':
      return 'auth';
    case 'TIMING_UNKNOWN_MODEL':
      return 'rejected';
    case 'TIMING_CONNECT_TIMEOUT':
    case 'TIMING_TOTAL_TIMEOUT':
      return 'timeout';
    case 'TIMING_FIRST_TOKEN_TIMEOUT':
    case 'TIMING_GAP_TIMEOUT':
      return 'stall';
    case 'TIMING_CONNECTION_RESET':
      return 'reset';
    case 'TIMING_UNREACHABLE':
      return isResetCode(error.details.system_code) ? 'reset' : 'unreachable';
    case 'TIMING_STREAM_ERROR':
      // a transport break mid-stream carries the system code; an error frame inside the stream does not
      return error.details.system_code ? 'reset' : 'server-error';
    case 'TIMING_NOT_SSE':
      return 'bad-stream';
    case 'TIMING_ABORTED':
      return 'aborted';
    case 'TIMING_BAD_OPTIONS':
      return 'other';
  }
}

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
