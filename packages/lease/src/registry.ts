import type { Lease } from './types';

/** How `releaseAll` ended: what was given back, what failed, and whether the time bound cut it short. */
export interface ReleaseAllResult {
  released: string[];
  failed: { leaseId: string; message: string }[];
  /** Leases still out when `timeoutMs` ran out (their releases go on in the background). */
  pending: string[];
}

/**
 * The leases a process holds, so an exit path that skips `finally` (an uncaught error, a second Ctrl-C)
 * can still give every GPU back. A lease leaves the registry by itself when it ends (released or lost).
 */
export interface LeaseRegistry {
  track(lease: Lease): void;
  held(): Lease[];
  /** Releases every held lease at once, in parallel; resolves after all settle or `timeoutMs` (default 5 000). */
  releaseAll(options?: { timeoutMs?: number }): Promise<ReleaseAllResult>;
}

export function createLeaseRegistry(): LeaseRegistry {
  const leases = new Set<Lease>();
  return {
    track(lease) {
      if (lease.signal.aborted) return;
      leases.add(lease);
      lease.signal.addEventListener('abort', () => leases.delete(lease), { once: true });
    },
    held: () => [...leases],
    async releaseAll(options = {}) {
      const result: ReleaseAllResult = { released: [], failed: [], pending: [] };
      const out = new Set([...leases].map((lease) => lease.id));
      const all = Promise.all(
        [...leases].map((lease) =>
          lease.release().then(
            () => {
              out.delete(lease.id);
              result.released.push(lease.id);
            },
            (error: unknown) => {
              out.delete(lease.id);
              result.failed.push({ leaseId: lease.id, message: error instanceof Error ? error.message : String(error) });
            },
          ),
        ),
      );
      let timer: ReturnType<typeof setTimeout> | undefined;
      const bound = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, options.timeoutMs ?? 5_000);
        timer.unref?.();
      });
      await Promise.race([all, bound]);
      clearTimeout(timer);
      result.pending = [...out];
      return result;
    },
  };
}

/**
 * Every lease this process acquires (by default; pass `registry: null` to opt out). The app's exit
 * handlers call `processLeases.releaseAll()`; libraries never install process handlers themselves.
 */
export const processLeases: LeaseRegistry = createLeaseRegistry();
