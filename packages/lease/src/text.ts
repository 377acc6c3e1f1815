import type { LocalLockInfo } from './local-lock';
import type { LeaseView, ResidentModel } from './protocol';
import type { LeaseProgress } from './types';

/** `45 s`, `12 min`, `3.5 h`; `-` when unknown. */
function ago(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '-';
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** One lease as `lease status` lists it: id, GPUs, holder, state, when it expires, its models and reason. */
export function describeLease(lease: LeaseView, nowS: number): string {
  const expires = lease.expires_at === null ? 'no TTL' : `expires in ${ago(lease.expires_at - nowS)}`;
  const models = lease.model_ids.length > 0 ? ` models ${lease.model_ids.join(', ')}` : '';
  return `${lease.id}  GPU ${lease.devices.join(',')}  ${lease.holder}  ${lease.state}  ${expires}${models}${lease.reason ? `  "${lease.reason}"` : ''}`;
}

/** A waiting, failing or lost lease as one line; null for progress that is only state. */
export function describeLeaseProgress(event: LeaseProgress): string | null {
  switch (event.type) {
    case 'lease-wait': {
      const who = event.blockers.map((b) => `${b.holder} (${b.id})`).concat(event.busyModels.map((m) => `busy ${m}`));
      return `waiting: ${event.reason} (${event.status})${who.length > 0 ? `, in the way: ${who.join(', ')}` : ''}; asking again in ${Math.round(event.waitMs / 1000)} s`;
    }
    case 'heartbeat-failed':
      return `heartbeat failed (${event.consecutive} in a row): ${event.error.message}`;
    case 'lease-lost':
      return `lease ${event.leaseId} lost: ${event.message}`;
    default:
      return null;
  }
}


/** One local GPU lock as `lease status` lists it: the GPU, held or stale, and who holds it since when. */
export function describeLocalLock(lock: LocalLockInfo): string {
  const r = lock.record;
  const state = lock.alive === true ? 'held' : lock.alive === false ? 'stale (will be taken over)' : 'unknown';
  return `GPU ${lock.device}  ${state}${r ? `  pid ${r.pid} on ${r.host}  ${r.holder}  since ${r.started_at}${r.reason ? `  "${r.reason}"` : ''}` : ''}`;
}

/** A model the server has loaded: its id, state, GPUs and active requests. */
export function describeResident(model: ResidentModel): string {
  return `${model.model_id}  ${model.state}  GPU ${(model.plan?.devices ?? []).join(',')}  active ${model.active_requests ?? 0}`;
}

/** `lease status` as text: a server's leases and loaded models, or (no server) the local GPU locks in `dir`. */
export function leaseStatusText(
  status: { server: string; leases: readonly LeaseView[]; loaded: readonly ResidentModel[]; nowS: number } | { dir: string; locks: readonly LocalLockInfo[] },
): string {
  if ('dir' in status) return [`local GPU locks in ${status.dir}: ${status.locks.length === 0 ? 'none' : ''}`, ...status.locks.map((l) => `  ${describeLocalLock(l)}`), ''].join('\n');
  return [
    `leases on ${status.server}: ${status.leases.length === 0 ? 'none' : ''}`,
    ...status.leases.map((l) => `  ${describeLease(l, status.nowS)}`),
    `loaded models: ${status.loaded.length === 0 ? 'none' : ''}`,
    ...status.loaded.map((m) => `  ${describeResident(m)}`),
    '',
  ].join('\n');
}
