import { acquireLocalLease, isLeaseError, type LocalLockRecord } from '@crucibleforge/lease';
import { RunnerError } from './errors';
import type { HeldLease } from './world';

export interface BusyLockOptions {
  /** Directory of the lock (one lock file, taken with @crucibleforge/lease's local lock). */
  dir: string;
  /** What is locked, for the refusal: e.g. `the local endpoint http://…` or `run 2026…`. */
  what: string;
  /** Written into the lock file, shown to whoever is refused. */
  reason: string;
  /** What the refused user can do. */
  advice: string;
  holder?: string;
  signal?: AbortSignal;
}

/**
 * An exclusive lock held by this process (PID, host, start time in the file). A lock whose process has died
 * (or whose PID was recycled) is taken over; a live holder refuses at once with RUNNER_BUSY naming it.
 */
export async function takeBusyLock(options: BusyLockOptions): Promise<HeldLease> {
  try {
    return await acquireLocalLease({
      devices: [0],
      cacheDir: options.dir,
      holder: options.holder ?? 'crucibleforge',
      reason: options.reason,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (!isLeaseError(error, 'LOCAL_LOCK_HELD')) throw error;
    const details = error.details as { path?: string; holder?: LocalLockRecord | 'garbage' } | undefined;
    const r = details?.holder;
    const who = r && r !== 'garbage' ? `pid ${r.pid} on ${r.host} (${r.holder}${r.reason ? `, "${r.reason}"` : ''}, since ${r.started_at})` : 'an unreadable lock';
    throw new RunnerError('RUNNER_BUSY', `${options.what} is in use by ${who}; lock file ${details?.path ?? options.dir}. ${options.advice}`, {
      cause: error,
      retryable: true,
      details: { path: details?.path, holder: r },
    });
  }
}
