import { LeaseError } from './errors';

/**
 * Idle TTL bounds we accept. StudioForge itself takes any number > 0 (or null); below 5 s a heartbeat
 * (TTL/3 < 1.7 s) leaves no room for one slow touch, and above a day a killed run would block a shared GPU
 * for longer than anyone waits for it.
 */
export const MIN_IDLE_TTL_S = 5;
export const MAX_IDLE_TTL_S = 86_400;
/** Minutes, not hours: a run killed by `kill -9` frees the cards this long after its last heartbeat. */
export const DEFAULT_IDLE_TTL_S = 300;
/** Without a TTL the lease is still touched this often, so a lost lease is noticed. */
const NO_TTL_HEARTBEAT_MS = 300_000;

/** At most a third of the idle TTL (two heartbeats may fail before it runs out), and at most 5 min. */
export function heartbeatIntervalMs(idleTtlS: number | null | undefined): number {
  if (idleTtlS === null || idleTtlS === undefined || !Number.isFinite(idleTtlS) || idleTtlS <= 0) return NO_TTL_HEARTBEAT_MS;
  return Math.min(NO_TTL_HEARTBEAT_MS, Math.floor((idleTtlS * 1000) / 3));
}

/** The idle TTL to send: the default when unset, null for none; anything outside the range is LEASE_CONFIG naming the field. */
export function validIdleTtl(value: number | null | undefined, field = 'idleTtlS'): number | null {
  if (value === undefined) return DEFAULT_IDLE_TTL_S;
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < MIN_IDLE_TTL_S || value > MAX_IDLE_TTL_S) {
    throw new LeaseError(
      'LEASE_CONFIG',
      `${field} must be a number of seconds from ${MIN_IDLE_TTL_S} to ${MAX_IDLE_TTL_S} (or null for no TTL), got ${JSON.stringify(value)}`,
      { details: { field, value, min: MIN_IDLE_TTL_S, max: MAX_IDLE_TTL_S } },
    );
  }
  return value;
}
