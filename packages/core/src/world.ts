/** A monotonic clock in milliseconds. Timing must use this, never Date.now(). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => performance.now() };

/** The fetch signature every network package accepts, so tests can record or fake requests. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Waits `ms` milliseconds; rejects with the signal's reason when aborted. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** A source of randomness in [0, 1) (jitter, nonces), injectable for deterministic tests. */
export type RandomSource = () => number;
