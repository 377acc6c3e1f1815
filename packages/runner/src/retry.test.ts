import { CrucibleError } from '@crucibleforge/core';
import { timingError, type PartialTimings } from '@crucibleforge/timing';
import { describe, expect, it } from 'vitest';
import { backoffMs, classifyFailure, DEFAULT_RETRY, withRetries } from './retry';

const partial = (token_events: number) => ({ token_events }) as PartialTimings;
const request = { url: 'http://x/v1/chat/completions', model: 'm', partial: partial(0) };
const http = (status: number, retryAfterS?: number) =>
  timingError('TIMING_HTTP', `HTTP ${status}`, { retryable: status === 429 || status >= 500, details: { ...request, status, retryAfterS: retryAfterS ?? null } });
const reset = (token_events: number) =>
  timingError('TIMING_STREAM_ERROR', 'the connection broke', { retryable: true, details: { ...request, partial: partial(token_events), system_code: 'ECONNRESET' } });

describe('classifyFailure', () => {
  it('classes statuses and honours the retryable flag', () => {
    expect(classifyFailure(http(429, 3))).toMatchObject({ errorClass: 'rate-limited', retryable: true, retryAfterS: 3 });
    expect(classifyFailure(http(503))).toMatchObject({ errorClass: 'server-error', retryable: true });
    expect(classifyFailure(http(400))).toMatchObject({ errorClass: 'rejected', retryable: false });
    expect(classifyFailure(http(401))).toMatchObject({ errorClass: 'auth', retryable: false });
    expect(classifyFailure(reset(0))).toMatchObject({ errorClass: 'reset', retryable: true });
    const refused = timingError('TIMING_UNREACHABLE', 'cannot reach', { details: { ...request, system_code: 'ECONNREFUSED' } });
    expect(classifyFailure(refused)).toMatchObject({ errorClass: 'unreachable', retryable: false });
    const timeout = timingError('TIMING_FIRST_TOKEN_TIMEOUT', 'slow', { details: { ...request, timeout_ms: 5 } });
    expect(classifyFailure(timeout)).toMatchObject({ errorClass: 'stall', retryable: true });
    // a code that is not the streaming client's is not read by its name
    expect(classifyFailure(new CrucibleError('X_TIMEOUT_RESET', 'x', { retryable: true }))).toMatchObject({ errorClass: 'other', retryable: false });
  });
  it('never retries once tokens were streamed', () => {
    expect(classifyFailure(reset(3)).retryable).toBe(false);
    expect(classifyFailure(new Error('boom'))).toMatchObject({ errorClass: 'other', retryable: false });
  });
});

describe('withRetries', () => {
  it('waits Retry-After (not less) then succeeds', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls += 1;
        if (calls === 1) throw http(429, 7);
        return 'ok';
      },
      DEFAULT_RETRY,
      { sleep: async (ms) => void waits.push(ms), random: () => 0.5 },
    );
    expect(result).toEqual({
      ok: true,
      value: 'ok',
      attempts: 2,
      faults: [{ class: 'rate-limited', message: expect.any(String), wait_s: 7 }],
      wait_s: 7,
      stream: null,
    });
    expect(waits).toEqual([7000]);
  });
  it('backs off exponentially and gives up after the last attempt', async () => {
    const waits: number[] = [];
    const result = await withRetries(
      async () => {
        throw http(500);
      },
      DEFAULT_RETRY,
      { sleep: async (ms) => void waits.push(ms), random: () => 0.5 },
    );
    expect(result.ok).toBe(false);
    expect(result.attempts).toBe(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });
  it('does not retry a rejection and caps a huge Retry-After', async () => {
    let calls = 0;
    const r = await withRetries(async () => {
      calls += 1;
      throw http(404);
    }, DEFAULT_RETRY, { sleep: async () => undefined, random: () => 0 });
    expect(calls).toBe(1);
    expect(r).toMatchObject({ ok: false, failure: { errorClass: 'rejected' } });
    expect(backoffMs(DEFAULT_RETRY, 1, classifyFailure(http(429, 3600)), () => 0)).toBe(60_000);
  });
});
