import type { FetchLike } from '@crucibleforge/core';
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { isResetCode, retryAfterSeconds, timingError, type TimingError } from './errors';
import { fetchModelIds } from './metadata';
import type { PartialTimings } from './types';

export interface ErrorContext {
  url: string;
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  fetch: FetchLike;
  partial: PartialTimings;
  /** A token-bearing event has arrived (a failure after this point is not retried blindly). */
  streamStarted: boolean;
}

/** Walks `cause` links for a Node system error code (ECONNREFUSED, ENOTFOUND, ECONNRESET, ...). */
export function systemErrorCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$|^UND_ERR/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** A transport failure (no HTTP status): unreachable, or a reset. */
export function transportError(error: unknown, ctx: ErrorContext, phase: 'connect' | 'body'): TimingError {
  const code = systemErrorCode(error);
  const reason = code ?? (error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error));
  const details = { url: ctx.url, model: ctx.model, partial: ctx.partial, system_code: code };
  if (phase === 'body') {
    return timingError(
      'TIMING_STREAM_ERROR',
      `the connection to ${ctx.url} broke mid-stream after ${ctx.partial.token_events} token events (${reason})`,
      { cause: error, retryable: !ctx.streamStarted, details },
    );
  }
  // A connection that was accepted and then dropped before any response is not an unreachable endpoint.
  if (isResetCode(code)) {
    return timingError('TIMING_CONNECTION_RESET', `the connection to ${ctx.url} was reset before a response (${reason})`, {
      cause: error,
      retryable: true,
      details,
    });
  }
  return timingError('TIMING_UNREACHABLE', `cannot reach ${ctx.url} (${reason})`, { cause: error, details });
}

function errorMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  return error.message.replace(/^\d{3}\s+/, '');
}

async function unknownModel(error: APIError, ctx: ErrorContext): Promise<TimingError | null> {
  const ids = await fetchModelIds(ctx.baseUrl, { fetch: ctx.fetch, apiKey: ctx.apiKey });
  if (ids === null || ids.includes(ctx.model)) return null;
  const list = ids.length > 0 ? ids.join(', ') : '(none)';
  return timingError('TIMING_UNKNOWN_MODEL', `model "${ctx.model}" is not served by ${ctx.baseUrl}; it has: ${list}`, {
    cause: error,
    details: { url: ctx.url, model: ctx.model, status: error.status ?? 404, available_models: ids, partial: ctx.partial },
  });
}

/** Maps an error thrown by the openai SDK before the stream began onto this package's codes. */
export async function requestError(error: unknown, ctx: ErrorContext): Promise<TimingError> {
  if (error instanceof APIUserAbortError) {
    return timingError('TIMING_ABORTED', `request to ${ctx.url} was cancelled`, {
      cause: error,
      details: { url: ctx.url, model: ctx.model, partial: ctx.partial },
    });
  }
  if (error instanceof APIConnectionError || !(error instanceof APIError) || error.status === undefined) {
    return transportError(error, ctx, 'connect');
  }
  const status = error.status;
  const message = errorMessage(error);
  if (status === 401 || status === 403) {
    return timingError('TIMING_AUTH', `${ctx.baseUrl} rejected the API key (HTTP ${status}: ${message})`, {
      cause: error,
      details: { url: ctx.url, model: ctx.model, status, partial: ctx.partial },
    });
  }
  if (status === 404 || (status === 400 && /model/i.test(message))) {
    const unknown = await unknownModel(error, ctx);
    if (unknown) return unknown;
  }
  const retryAfterS = retryAfterSeconds(error.headers);
  const retryable = status === 408 || status === 429 || status >= 500;
  const hint = status === 404 ? ' (does the base URL end with /v1?)' : '';
  return timingError('TIMING_HTTP', `${ctx.url} answered HTTP ${status}: ${message}${hint}`, {
    cause: error,
    retryable,
    details: { url: ctx.url, model: ctx.model, status, retryAfterS, partial: ctx.partial },
  });
}
