/** What a lease holder prints: the lease held (attached or detached) and the lease given back. */
import { LeaseError } from './errors';
import type { Lease, ReleaseResult } from './types';

/** `lease … held on GPU 0,1 of SERVER; press Ctrl-C to release` (a local lock names itself). */
export function leaseHeldLine(lease: Pick<Lease, 'id' | 'devices'>, server: string | undefined): string {
  return `lease ${lease.id} held on GPU ${lease.devices.join(',')}${server ? ` of ${server}` : ' (local lock)'}; press Ctrl-C to release\n`;
}

/** A detached lease: when the server drops it (`ttlS` 0: never) and how to release it. */
export function leaseDetachedNote(lease: Pick<Lease, 'id' | 'devices'>, server: string | undefined, ttlS: number): string {
  return `lease ${lease.id} held on GPU ${lease.devices.join(',')}; it is not touched any more, so the server drops it after ${ttlS === 0 ? 'never (no TTL)' : `${ttlS} s idle`}. Release it with: crucibleforge lease release --server ${server} --id ${lease.id}\n`;
}

/** A lease given back: by its holder (`held`: it ended a hold) or by id. An unknown id counts as released. */
export function leaseReleasedLine(result: ReleaseResult, held: boolean): string {
  if (held) return `released lease ${result.leaseId}${result.outcome === 'already-gone' ? ' (the server had already dropped it)' : ''}\n`;
  return result.outcome === 'released' ? `released lease ${result.leaseId}\n` : `lease ${result.leaseId} was already gone (counts as released)\n`;
}

/** A comma list of GPU indices (`--devices 0,1`); LEASE_CONFIG naming `field` for an empty list or an item that is not one. */
export function parseDeviceList(items: readonly string[], field = 'devices'): number[] {
  if (items.length === 0) throw new LeaseError('LEASE_CONFIG', `${field} needs at least one GPU index, e.g. ${field} 0,1`, { details: { field } });
  return items.map((item) => {
    const n = Number(item);
    if (!Number.isInteger(n) || n < 0) throw new LeaseError('LEASE_CONFIG', `${field}: "${item}" is not a GPU index (a whole number ≥ 0)`, { details: { field, value: item } });
    return n;
  });
}
