import { realSleep, type Sleep } from '@crucibleforge/core';
import { LeaseError, isLeaseError } from './errors';
import type { LeaseServerOptions } from './http';
import type { ResidentModel } from './protocol';
import { fetchServerStatus } from './server-calls';

export interface WaitForModelReadyOptions extends LeaseServerOptions {
  modelId: string;
  /** Give up after this long overall (default 900 000 ms). */
  timeoutMs?: number;
  /** The model must show up in `loaded[]` within this long (default 60 000 ms; a lease load starts at once). */
  appearTimeoutMs?: number;
  /** Time between status polls (default 2 000 ms). */
  pollMs?: number;
  /** Unreadable status replies tolerated in a row before giving up (default 3). Auth refusals are never tolerated. */
  maxConsecutiveErrors?: number;
  signal?: AbortSignal;
  /** Monotonic milliseconds (default performance.now). */
  now?: () => number;
  sleep?: Sleep;
}

/** How the wait ended. Only `ready` means go; the others are expected outcomes the caller reports. */
export type ModelReadiness =
  | { kind: 'ready'; model: ResidentModel; waitedMs: number }
  | { kind: 'failed'; model: ResidentModel; waitedMs: number; message: string }
  | { kind: 'never-appeared'; waitedMs: number; message: string }
  | { kind: 'vanished'; waitedMs: number; message: string }
  | { kind: 'timeout'; model: ResidentModel | null; waitedMs: number; message: string };

const FATAL_CODES = new Set(['LEASE_AUTH', 'LEASE_ADMIN_CREDENTIAL', 'LEASE_AUTH_LOCKED', 'LEASE_CONFIG', 'LEASE_UNSUPPORTED_SERVER', 'LEASE_ABORTED']);

/**
 * Polls `GET /api/status` until `modelId`'s `loaded[]` row is `ready`. A load can fail silently
 * (lease granted, `loaded[]` stays empty), so "never appeared" and "vanished" are outcomes too.
 * Throws only for auth/config problems, an abort, or more than `maxConsecutiveErrors` unreadable replies.
 */
export async function waitForModelReady(options: WaitForModelReadyOptions): Promise<ModelReadiness> {
  if (options.modelId.trim() === '') throw new LeaseError('LEASE_CONFIG', 'waitForModelReady: modelId is empty');
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? realSleep;
  const timeoutMs = options.timeoutMs ?? 900_000;
  const appearTimeoutMs = options.appearTimeoutMs ?? 60_000;
  const pollMs = options.pollMs ?? 2_000;
  const maxErrors = options.maxConsecutiveErrors ?? 3;
  const start = now();
  const id = options.modelId;
  let seen: ResidentModel | null = null;
  let errors = 0;

  for (;;) {
    const waitedMs = now() - start;
    try {
      const status = await fetchServerStatus(options);
      errors = 0;
      const row = status.loaded.find((model) => model.model_id === id) ?? null;
      if (row?.state === 'ready') return { kind: 'ready', model: row, waitedMs };
      if (row && row.state !== 'loading') {
        return { kind: 'failed', model: row, waitedMs, message: `model ${id} is ${row.state}${row.last_error ? `: ${row.last_error}` : ''}` };
      }
      if (!row && seen) return { kind: 'vanished', waitedMs, message: `model ${id} disappeared from the server's loaded models while loading` };
      if (!row && waitedMs >= appearTimeoutMs) {
        return {
          kind: 'never-appeared',
          waitedMs,
          message: `model ${id} did not appear among the loaded models within ${Math.round(appearTimeoutMs / 1000)} s (the load may have failed: check the server log)`,
        };
      }
      seen = row ?? seen;
    } catch (error) {
      if (!isLeaseError(error) || FATAL_CODES.has(error.code)) throw error;
      errors += 1;
      if (errors > maxErrors) throw error;
    }
    if (waitedMs >= timeoutMs) {
      return { kind: 'timeout', model: seen, waitedMs, message: `model ${id} was not ready after ${Math.round(timeoutMs / 1000)} s${seen ? ` (still ${seen.state})` : ''}` };
    }
    try {
      await sleep(Math.min(pollMs, Math.max(0, start + timeoutMs - now())), options.signal);
    } catch (error) {
      throw new LeaseError('LEASE_ABORTED', `waiting for model ${id} was aborted`, { cause: error });
    }
  }
}
