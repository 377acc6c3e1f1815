import type { LeaseError } from './errors';
import type { LeaseView } from './protocol';
import type { WaitReason } from './refusals';

/** `held` until released or lost; `releasing` while the DELETE is in flight. */
export type LeaseState = 'held' | 'releasing' | 'released' | 'lost';

/** How `release()` ended. `already-gone`: the server answered 404 (counts as released). */
export interface ReleaseResult {
  leaseId: string;
  outcome: 'released' | 'already-gone' | 'was-lost';
}

/** Why a lease was lost: the server stopped knowing it (idle TTL ran out, or someone released it). */
export interface LeaseLoss {
  leaseId: string;
  message: string;
  /** The injected clock's `now()` when we noticed. */
  at: number;
}

/** A claim on GPUs: remote (StudioForge) or local (lock files). Release it; `await using` does it for you. */
export interface Lease extends AsyncDisposable {
  readonly id: string;
  readonly kind: 'remote' | 'local';
  readonly devices: readonly number[];
  readonly state: LeaseState;
  /** Resolves when the lease is lost (never rejects; stays pending when it is released normally). */
  readonly lost: Promise<LeaseLoss>;
  /** Aborts when the lease ends: reason is a LeaseError LEASE_LOST or LEASE_RELEASED. Pass it to work on these GPUs. */
  readonly signal: AbortSignal;
  /** Idempotent: a second call returns the first call's promise. Throws LEASE_RELEASE_FAILED / LEASE_UNREACHABLE (then the lease stays held and can be released again). */
  release(): Promise<ReleaseResult>;
}

/** Result of one heartbeat. */
export type TouchResult =
  | { kind: 'touched'; view: Partial<LeaseView> }
  | { kind: 'lost'; loss: LeaseLoss }
  | { kind: 'failed'; error: LeaseError }
  | { kind: 'not-held'; state: LeaseState };

export interface RemoteLease extends Lease {
  readonly kind: 'remote';
  /** The management root, e.g. `http://gpu-box:1234`. */
  readonly server: string;
  /** The server's latest view of the lease (from the grant or the last touch). */
  readonly view: Partial<LeaseView>;
  /** Milliseconds between heartbeats: ⌊TTL/3⌋, at most 5 min; 5 min when the lease has no TTL. */
  readonly heartbeatMs: number;
  /** One heartbeat now (the timer calls this too). */
  touch(): Promise<TouchResult>;
}

/** The timers the heartbeat uses; tests pass manual ones so no test waits a real TTL. */
export interface LeaseTimers {
  setTimeout(callback: () => unknown, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Real timers, unref'd so a forgotten lease never keeps a process alive (the server's TTL is the backstop). */
export const realTimers: LeaseTimers = {
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/** Everything `acquireLease` reports while it works and while the lease lives. */
export type LeaseProgress =
  | { type: 'lease-request'; attempt: number; url: string; devices: number[] }
  | {
      type: 'lease-wait';
      attempt: number;
      reason: WaitReason;
      status: number;
      code: string | null;
      message: string;
      /** How long we sleep before the next attempt (hint clamped to [min, cap], jittered, cut at the deadline). */
      waitMs: number;
      retryAfterS: number | null;
      /** Leases in the way (`error.studioforge.leases`), when the server named them. */
      blockers: LeaseView[];
      busyModels: string[];
    }
  | { type: 'lease-granted'; attempt: number; lease: Partial<LeaseView> & { id: string }; heartbeatMs: number }
  | { type: 'heartbeat'; leaseId: string; view: Partial<LeaseView> }
  | { type: 'heartbeat-failed'; leaseId: string; error: LeaseError; consecutive: number }
  | { type: 'lease-lost'; leaseId: string; message: string }
  | { type: 'lease-released'; leaseId: string; outcome: ReleaseResult['outcome'] };
