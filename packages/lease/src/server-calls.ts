import { LeaseError } from './errors';
import { callServer, type LeaseServerOptions } from './http';
import { leasesOf, leaseViewOf, residentsOf, type LeaseView, type ResidentModel } from './protocol';
import { refusalError } from './refusals';
import type { ReleaseResult } from './types';

function leasePath(id: string, suffix = ''): string {
  if (id.trim() === '') throw new LeaseError('LEASE_CONFIG', 'lease id is empty');
  return `/api/leases/${encodeURIComponent(id)}${suffix}`;
}

/**
 * `DELETE /api/leases/{id}`. A 404 means the server no longer has it: that counts as released
 * (`already-gone`). Anything else non-2xx throws LEASE_RELEASE_FAILED (retryable) or the auth error.
 */
export async function releaseLeaseById(options: LeaseServerOptions & { id: string; signal?: AbortSignal }): Promise<ReleaseResult> {
  const reply = await callServer(options, 'DELETE', leasePath(options.id), { signal: options.signal });
  if (reply.ok) return { leaseId: options.id, outcome: 'released' };
  if (reply.refusal.status === 404) return { leaseId: options.id, outcome: 'already-gone' };
  const error = refusalError(reply.refusal, reply.url, `release of lease ${options.id}`);
  if (error.code !== 'LEASE_SERVER_ERROR') throw error;
  throw new LeaseError('LEASE_RELEASE_FAILED', `${error.message}; the lease may still stand: release it again (or let its idle TTL run out)`, {
    cause: error,
    retryable: true,
    details: error.details,
  });
}

export type TouchReply = { kind: 'touched'; view: Partial<LeaseView> } | { kind: 'not-found'; message: string };

/** `POST /api/leases/{id}/touch`: resets the idle clock. 404 is a value (`not-found`); other failures throw. */
export async function touchLeaseById(options: LeaseServerOptions & { id: string; signal?: AbortSignal }): Promise<TouchReply> {
  const reply = await callServer(options, 'POST', leasePath(options.id, '/touch'), { signal: options.signal });
  if (reply.ok) return { kind: 'touched', view: leaseViewOf(reply.body) };
  if (reply.refusal.status === 404) return { kind: 'not-found', message: reply.refusal.message };
  throw refusalError(reply.refusal, reply.url, `heartbeat of lease ${options.id}`);
}

async function getJson(options: LeaseServerOptions & { signal?: AbortSignal }, path: string, what: string): Promise<unknown> {
  const reply = await callServer(options, 'GET', path, { signal: options.signal });
  if (!reply.ok) throw refusalError(reply.refusal, reply.url, what);
  if (typeof reply.body !== 'object' || reply.body === null) {
    throw new LeaseError('LEASE_SERVER_ERROR', `${what}: ${reply.url} did not answer JSON`, { details: { url: reply.url } });
  }
  return reply.body;
}

/** `GET /api/leases`: every standing lease. */
export async function listLeases(options: LeaseServerOptions & { signal?: AbortSignal }): Promise<LeaseView[]> {
  return leasesOf(await getJson(options, '/api/leases', 'listing leases'));
}

/** What `GET /api/status` says about residents and leases (plus the raw reply). */
export interface ServerStatus {
  loaded: ResidentModel[];
  leases: LeaseView[];
  raw: unknown;
}

/** `GET /api/status`: the truth about which models are resident and which leases stand. */
export async function fetchServerStatus(options: LeaseServerOptions & { signal?: AbortSignal }): Promise<ServerStatus> {
  const raw = await getJson(options, '/api/status', 'reading server status');
  return { loaded: residentsOf(raw), leases: leasesOf(raw), raw };
}

/** `GET /api/gpus`: the CUDA device indices the server has (how a client learns what to lease). */
export async function listGpuIndices(options: LeaseServerOptions & { signal?: AbortSignal }): Promise<number[]> {
  const body = (await getJson(options, '/api/gpus', 'listing GPUs')) as { gpus?: unknown };
  const gpus = Array.isArray(body.gpus) ? body.gpus : [];
  return gpus
    .map((gpu) => (typeof gpu === 'object' && gpu !== null ? (gpu as { index?: unknown }).index : undefined))
    .filter((index): index is number => typeof index === 'number' && Number.isInteger(index) && index >= 0)
    .sort((a, b) => a - b);
}
