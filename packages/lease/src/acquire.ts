import { realSleep, type RandomSource, type Sleep } from '@crucibleforge/core';
import { LeaseError } from './errors';
import { callServer, managementRoot, type LeaseServerOptions } from './http';
import { leaseIdOf, leaseViewOf, type LeasePriority, type LeaseRequestBody, type Refusal } from './protocol';
import { classifyGrantRefusal } from './refusals';
import { processLeases, type LeaseRegistry } from './registry';
import { RemoteLeaseHandle } from './remote-lease';
import { validIdleTtl } from './ttl';
import { realTimers, type LeaseProgress, type LeaseTimers, type RemoteLease } from './types';

export interface AcquireLeaseOptions extends LeaseServerOptions {
  /** Exact CUDA device indices to claim (deduplicated and sorted before sending). */
  devices: readonly number[];
  /** Models allowed on (and loaded onto) those cards; [] reserves the cards for work outside the server. */
  modelIds?: readonly string[];
  /** Display name; its family (text before the first `-` or `:`) classifies the lease. Default `crucibleforge`. */
  holder?: string;
  reason?: string;
  /** Idle seconds before the server drops the lease, 5–86 400; `null` = until released. Default 300 (the heartbeat keeps a live run's lease). */
  idleTtlS?: number | null;
  /** 1 chat, 2 agent, 3 background. Default 2 (lets us ask class-3 tenants to vacate). */
  priority?: LeasePriority;
  /** May evict a pinned *idle* resident; never overrides a standing lease. Default false; never escalated by itself. */
  force?: boolean;
  /** Where a better class may POST a vacate request to us, and the token it sends back. */
  vacateUrl?: string;
  vacateToken?: string;
  /** How long to keep asking while the cards are taken (default 600 000 ms). 0 = ask once. */
  waitMs?: number;
  /** Bounds for one wait between attempts (defaults 2 000 and 60 000 ms), applied to the server's retry_after_s. */
  minRetryMs?: number;
  maxRetryMs?: number;
  /** ± fraction of random spread added to each wait (default 0.2) so waiting clients do not stampede. */
  jitter?: number;
  signal?: AbortSignal;
  /** Monotonic milliseconds (default performance.now). */
  now?: () => number;
  sleep?: Sleep;
  random?: RandomSource;
  /** Heartbeat timers (default real, unref'd). */
  timers?: LeaseTimers;
  /** Where the granted lease is tracked for the app's exit handlers (default `processLeases`; null: not tracked). */
  registry?: LeaseRegistry | null;
  /** Progress while waiting, the grant, and later the lease's heartbeats, loss and release. */
  onProgress?: (event: LeaseProgress) => void;
}

function validDevices(devices: readonly number[]): number[] {
  if (!Array.isArray(devices) || devices.length === 0) {
    throw new LeaseError('LEASE_CONFIG', 'devices must list at least one CUDA device index (e.g. [0, 1])');
  }
  for (const device of devices) {
    if (!Number.isInteger(device) || device < 0) {
      throw new LeaseError('LEASE_CONFIG', `devices: ${JSON.stringify(device)} is not a CUDA device index (a whole number ≥ 0)`);
    }
  }
  return [...new Set(devices)].sort((a, b) => a - b);
}

/** Builds the POST body, validating every field and naming the bad one. */
export function leaseRequestBody(options: AcquireLeaseOptions): LeaseRequestBody {
  const idleTtlS = validIdleTtl(options.idleTtlS);
  const priority = options.priority ?? 2;
  if (![1, 2, 3].includes(priority)) throw new LeaseError('LEASE_CONFIG', `priority must be 1, 2 or 3, got ${String(priority)}`);
  const holder = options.holder ?? 'crucibleforge';
  if (holder.trim() === '') throw new LeaseError('LEASE_CONFIG', 'holder must not be empty');
  const modelIds = [...(options.modelIds ?? [])];
  const badModel = modelIds.find((id) => typeof id !== 'string' || id.trim() === '');
  if (badModel !== undefined) throw new LeaseError('LEASE_CONFIG', `modelIds contains an empty or non-string id: ${JSON.stringify(badModel)}`);
  if (options.vacateToken !== undefined && options.vacateUrl === undefined) {
    throw new LeaseError('LEASE_CONFIG', 'vacateToken is only meaningful together with vacateUrl');
  }
  return {
    devices: validDevices(options.devices),
    model_ids: modelIds,
    holder,
    reason: options.reason ?? '',
    idle_ttl_s: idleTtlS,
    priority,
    force: options.force ?? false,
    ...(options.vacateUrl === undefined ? {} : { vacate_url: options.vacateUrl }),
    ...(options.vacateToken === undefined ? {} : { vacate_token: options.vacateToken }),
  };
}

function describeBlockers(refusal: Refusal): string {
  const leases = refusal.details.leases ?? [];
  const busy = (refusal.details.busy_models ?? []).map((m) => m.model_id);
  const parts = leases.map(
    (l) => `lease ${l.id} of ${l.holder} on GPU ${(l.devices ?? []).join(',')}${l.reason ? ` (${l.reason})` : ''}`,
  );
  if (busy.length > 0) parts.push(`busy model(s) ${busy.join(', ')}`);
  if (refusal.details.priority_hold?.model_id) parts.push(`priority hold for ${refusal.details.priority_hold.model_id}`);
  return parts.length > 0 ? `; in the way: ${parts.join('; ')}` : '';
}

/**
 * Claims GPUs on a StudioForge server (`POST /api/leases`). While the cards are taken (409
 * lease_conflict / lease_vacating, 503 model_busy / priority_hold, 507 with a retry hint) it waits the
 * server's `retry_after_s` (clamped, jittered) and asks again until `waitMs` runs out, reporting each
 * wait. 507 without a hint, auth and bad-argument refusals throw at once (LeaseError, see codes).
 */
export async function acquireLease(options: AcquireLeaseOptions): Promise<RemoteLease> {
  const body = leaseRequestBody(options);
  const root = managementRoot(options.server);
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const onProgress = options.onProgress ?? (() => {});
  const waitMs = options.waitMs ?? 600_000;
  const minRetryMs = options.minRetryMs ?? 2_000;
  const maxRetryMs = Math.max(minRetryMs, options.maxRetryMs ?? 60_000);
  const jitter = Math.min(Math.max(options.jitter ?? 0.2, 0), 1);
  const deadline = now() + waitMs;
  const url = `${root}/api/leases`;

  for (let attempt = 1; ; attempt += 1) {
    if (options.signal?.aborted) throw new LeaseError('LEASE_ABORTED', `lease request to ${url} was aborted`, { cause: options.signal.reason });
    onProgress({ type: 'lease-request', attempt, url, devices: body.devices });
    const reply = await callServer(options, 'POST', '/api/leases', { body, timeoutMs: null, signal: options.signal });
    if (reply.ok) {
      const id = leaseIdOf(reply.body);
      if (id === null) {
        throw new LeaseError('LEASE_SERVER_ERROR', `${url} granted a lease but its reply has no id (looked for id / lease_id): ${JSON.stringify(reply.body).slice(0, 200)}`, {
          details: { url, body: reply.body },
        });
      }
      const view = { ...leaseViewOf(reply.body), id };
      const lease = new RemoteLeaseHandle({
        // Not the caller's signal: aborting the wait must not abort heartbeats or the release.
        connection: { server: options.server, auth: options.auth, fetch: options.fetch, requestTimeoutMs: options.requestTimeoutMs },
        id,
        devices: Array.isArray(view.devices) ? view.devices : body.devices,
        view,
        idleTtlS: body.idle_ttl_s,
        now,
        timers: options.timers ?? realTimers,
        onProgress,
      });
      (options.registry === undefined ? processLeases : options.registry)?.track(lease);
      onProgress({ type: 'lease-granted', attempt, lease: view, heartbeatMs: lease.heartbeatMs });
      return lease;
    }
    const verdict = classifyGrantRefusal(reply.refusal, url);
    if (verdict.action === 'fail') throw verdict.error;
    const remaining = deadline - now();
    if (remaining <= 0) {
      const refusal = reply.refusal;
      throw new LeaseError(
        'LEASE_WAIT_TIMEOUT',
        `GPU ${body.devices.join(',')} on ${root} still taken after ${Math.round(waitMs / 1000)} s ` +
          `(${refusal.status} ${refusal.code ?? ''}: ${refusal.message})${describeBlockers(refusal)}; ` +
          'try again later, wait longer (waitMs / --wait-s), or lease other devices',
        { retryable: true, details: { url, status: refusal.status, code: refusal.code, server: refusal.details, attempts: attempt } },
      );
    }
    const hintMs = (verdict.retryAfterS ?? verdict.fallbackS) * 1000;
    const clamped = Math.min(Math.max(hintMs, minRetryMs), maxRetryMs);
    const jittered = clamped * (1 + jitter * (2 * random() - 1));
    const pause = Math.max(0, Math.min(jittered, remaining));
    onProgress({
      type: 'lease-wait',
      attempt,
      reason: verdict.reason,
      status: reply.refusal.status,
      code: reply.refusal.code,
      message: reply.refusal.message,
      waitMs: pause,
      retryAfterS: verdict.retryAfterS,
      blockers: reply.refusal.details.leases ?? [],
      busyModels: (reply.refusal.details.busy_models ?? []).map((m) => m.model_id),
    });
    try {
      await sleep(pause, options.signal);
    } catch (error) {
      throw new LeaseError('LEASE_ABORTED', `waiting for GPU ${body.devices.join(',')} on ${root} was aborted`, { cause: error });
    }
  }
}
