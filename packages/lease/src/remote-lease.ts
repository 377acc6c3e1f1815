import { LeaseError, isLeaseError } from './errors';
import { managementRoot, type LeaseServerOptions } from './http';
import type { LeaseView } from './protocol';
import { releaseLeaseById, touchLeaseById } from './server-calls';
import { heartbeatIntervalMs } from './ttl';
import type { LeaseLoss, LeaseProgress, LeaseState, LeaseTimers, ReleaseResult, RemoteLease, TouchResult } from './types';


export interface RemoteLeaseInit {
  connection: LeaseServerOptions;
  id: string;
  devices: number[];
  view: Partial<LeaseView>;
  idleTtlS: number | null;
  now: () => number;
  timers: LeaseTimers;
  onProgress: (event: LeaseProgress) => void;
}

/** A granted StudioForge lease: heartbeats on the injected timers, notices loss, releases once. */
export class RemoteLeaseHandle implements RemoteLease {
  readonly kind = 'remote' as const;
  readonly id: string;
  readonly devices: readonly number[];
  readonly server: string;
  readonly heartbeatMs: number;
  readonly lost: Promise<LeaseLoss>;
  readonly #controller = new AbortController();
  readonly #init: RemoteLeaseInit;
  #view: Partial<LeaseView>;
  #state: LeaseState = 'held';
  #timer: unknown = undefined;
  #failures = 0;
  #release: Promise<ReleaseResult> | undefined;
  #resolveLost!: (loss: LeaseLoss) => void;

  constructor(init: RemoteLeaseInit) {
    this.#init = init;
    this.id = init.id;
    this.devices = Object.freeze([...init.devices]);
    this.server = managementRoot(init.connection.server);
    this.#view = init.view;
    this.heartbeatMs = heartbeatIntervalMs(typeof init.view.idle_ttl_s === 'number' || init.view.idle_ttl_s === null ? init.view.idle_ttl_s : init.idleTtlS);
    this.lost = new Promise((resolve) => (this.#resolveLost = resolve));
    this.#schedule();
  }

  get state(): LeaseState {
    return this.#state;
  }

  get view(): Partial<LeaseView> {
    return this.#view;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  #schedule(): void {
    if (this.#state !== 'held') return;
    this.#timer = this.#init.timers.setTimeout(() => this.#beat(), this.heartbeatMs);
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) this.#init.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #beat(): Promise<void> {
    this.#timer = undefined;
    await this.touch();
    if (this.#timer === undefined) this.#schedule();
  }

  async touch(): Promise<TouchResult> {
    if (this.#state !== 'held') return { kind: 'not-held', state: this.#state };
    try {
      // A touch that hangs longer than one interval is a failed touch, not a silent wait past the TTL.
      const requestTimeoutMs = Math.min(this.#init.connection.requestTimeoutMs ?? 30_000, this.heartbeatMs);
      const reply = await touchLeaseById({ ...this.#init.connection, requestTimeoutMs, id: this.id });
      if (this.#state !== 'held') return { kind: 'not-held', state: this.#state };
      if (reply.kind === 'not-found') {
        return { kind: 'lost', loss: this.#markLost(`the server no longer knows lease ${this.id} (${reply.message}): its idle TTL ran out or someone released it`) };
      }
      this.#failures = 0;
      this.#view = { ...this.#view, ...reply.view };
      this.#init.onProgress({ type: 'heartbeat', leaseId: this.id, view: this.#view });
      return { kind: 'touched', view: this.#view };
    } catch (error) {
      const leaseError = isLeaseError(error) ? error : new LeaseError('LEASE_SERVER_ERROR', String(error), { cause: error });
      this.#failures += 1;
      this.#init.onProgress({ type: 'heartbeat-failed', leaseId: this.id, error: leaseError, consecutive: this.#failures });
      return { kind: 'failed', error: leaseError };
    }
  }

  #markLost(message: string): LeaseLoss {
    const loss: LeaseLoss = { leaseId: this.id, message, at: this.#init.now() };
    this.#state = 'lost';
    this.#stopTimer();
    this.#resolveLost(loss);
    this.#controller.abort(new LeaseError('LEASE_LOST', `lease ${this.id} was lost: ${message}`, { details: { leaseId: this.id } }));
    this.#init.onProgress({ type: 'lease-lost', leaseId: this.id, message });
    return loss;
  }

  release(): Promise<ReleaseResult> {
    this.#release ??= this.#doRelease();
    return this.#release;
  }

  async #doRelease(): Promise<ReleaseResult> {
    if (this.#state === 'lost') {
      this.#init.onProgress({ type: 'lease-released', leaseId: this.id, outcome: 'was-lost' });
      return { leaseId: this.id, outcome: 'was-lost' };
    }
    this.#state = 'releasing';
    this.#stopTimer();
    try {
      const result = await releaseLeaseById({ ...this.#init.connection, id: this.id });
      this.#state = 'released';
      this.#controller.abort(new LeaseError('LEASE_RELEASED', `lease ${this.id} was released`, { details: { leaseId: this.id } }));
      this.#init.onProgress({ type: 'lease-released', leaseId: this.id, outcome: result.outcome });
      return result;
    } catch (error) {
      // Still ours on the server as far as we know: keep it alive and let the caller try again.
      this.#state = 'held';
      this.#release = undefined;
      this.#schedule();
      throw error;
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }
}
