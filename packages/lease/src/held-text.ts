/** What a lease holder prints (the lease held, attached or detached, and given back) and what it is given (GPU indices, auth). */
import { LeaseError } from './errors';
import type { Lease, ReleaseResult } from './types';
import type { LeaseAuth } from './http';

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

/** The lease calls' auth from what the user gave; an `apiKeyHeader` other than bearer or x-api-key is LEASE_CONFIG naming `field`. */
export function leaseAuth(given: { apiKey?: string | undefined; apiKeyHeader?: string | undefined; pin?: string | undefined }, field = 'apiKeyHeader'): LeaseAuth {
  const header = given.apiKeyHeader;
  if (header !== undefined && header !== 'bearer' && header !== 'x-api-key') {
    throw new LeaseError('LEASE_CONFIG', `${field} must be bearer or x-api-key, got "${header}"`, { details: { field, value: header } });
  }
  return { ...(given.apiKey !== undefined ? { apiKey: given.apiKey } : {}), ...(header !== undefined ? { apiKeyHeader: header } : {}), ...(given.pin !== undefined ? { pin: given.pin } : {}) };
}
