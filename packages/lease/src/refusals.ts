import { LeaseError } from './errors';
import type { Refusal } from './protocol';

/** Why a grant is worth asking again later. */
export type WaitReason =
  | 'lease_conflict'
  | 'lease_vacating'
  | 'model_busy'
  | 'priority_hold'
  | 'benchmark_busy'
  | 'vram_busy'
  | 'server_busy';

export type GrantVerdict =
  | { action: 'wait'; reason: WaitReason; retryAfterS: number | null; fallbackS: number }
  | { action: 'fail'; error: LeaseError };

const NO_HINT_POLL_S: Record<WaitReason, number> = {
  lease_conflict: 60,
  lease_vacating: 15,
  model_busy: 15,
  priority_hold: 5,
  benchmark_busy: 15,
  vram_busy: 15,
  server_busy: 5,
};

function wait(reason: WaitReason, refusal: Refusal, retryAfterS = refusal.retryAfterS): GrantVerdict {
  return { action: 'wait', reason, retryAfterS, fallbackS: NO_HINT_POLL_S[reason] };
}

/** Decides whether a refused `POST /api/leases` is a wait (someone else is on the cards) or final. */
export function classifyGrantRefusal(refusal: Refusal, url: string): GrantVerdict {
  const { status, code } = refusal;
  if (status === 409) {
    if (code === 'lease_conflict') return wait('lease_conflict', refusal);
    if (code === 'lease_vacating') return wait('lease_vacating', refusal);
    // Older servers refuse a priority tier in prose only.
    if (code === null && /already leased|does not outrank|higher[- ]priority/i.test(refusal.message)) {
      return wait('lease_conflict', refusal);
    }
  }
  if (status === 503) {
    if (code === 'model_busy' || code === 'priority_hold' || code === 'benchmark_busy') return wait(code, refusal);
    return wait('server_busy', refusal);
  }
  if (status === 507) {
    const hint = typeof refusal.details.retry_after_s === 'number' ? refusal.details.retry_after_s : null;
    const busy = Array.isArray(refusal.details.busy_models) && refusal.details.busy_models.length > 0;
    if (hint !== null || busy) return wait('vram_busy', refusal, hint ?? refusal.retryAfterS);
  }
  return { action: 'fail', error: refusalError(refusal, url, 'lease request') };
}

function tail(refusal: Refusal): string {
  return `${refusal.status}${refusal.code ? ` ${refusal.code}` : ''}: ${refusal.message}`;
}

/** A final refusal as a LeaseError whose message names the URL and says what to do. */
export function refusalError(refusal: Refusal, url: string, what: string): LeaseError {
  const details = { url, status: refusal.status, code: refusal.code, param: refusal.param, server: refusal.details };
  const { status, code } = refusal;
  if (status === 401) {
    return new LeaseError(
      'LEASE_AUTH',
      `${what} to ${url} was refused (${tail(refusal)}); the server has an API key: pass it as auth.apiKey ` +
        '(CLI: --api-key-env NAME_OF_THE_VARIABLE_HOLDING_IT), or check that the key is right',
      { details },
    );
  }
  if (status === 403) {
    return new LeaseError(
      'LEASE_ADMIN_CREDENTIAL',
      `${what} to ${url} was refused (${tail(refusal)}); lease calls from another machine need the MCP pairing PIN ` +
        '(auth.pin, sent as X-MCP-Pin; CLI: --pin-env VAR) or the API key, or run on the server machine itself',
      { details },
    );
  }
  if (status === 429) {
    return new LeaseError(
      'LEASE_AUTH_LOCKED',
      `${what} to ${url} was refused (${tail(refusal)}); too many wrong credentials from this address: fix the key/PIN ` +
        `and try again after ${refusal.retryAfterS ?? 'a few'} s`,
      { details, retryable: true },
    );
  }
  if (status === 400) {
    return new LeaseError(
      'LEASE_REFUSED',
      `${what} to ${url} was rejected as invalid${refusal.param ? ` (field "${refusal.param}")` : ''}: ${refusal.message}`,
      { details },
    );
  }
  if (status === 404 && code === 'model_not_found') {
    return new LeaseError(
      'LEASE_MODEL_NOT_FOUND',
      `${what} to ${url} names a model the server does not have (${refusal.message}); use an id from GET /v1/models`,
      { details },
    );
  }
  if ((status === 404 || status === 405) && !refusal.enveloped) {
    return new LeaseError(
      'LEASE_UNSUPPORTED_SERVER',
      `${url} answered ${status}: this server has no StudioForge lease API; check --server (it should be the StudioForge gateway, e.g. http://host:1234)`,
      { details },
    );
  }
  if (status === 409) {
    const pinned = /pinn?ed|force/i.test(refusal.message);
    return new LeaseError(
      'LEASE_REFUSED',
      `${what} to ${url} was refused (${tail(refusal)})` +
        (pinned ? '; a pinned idle model sits on those cards: pass force: true (CLI --force) to evict it, or pick other devices' : ''),
      { details },
    );
  }
  if (status === 507) {
    return new LeaseError(
      'LEASE_INSUFFICIENT_VRAM',
      `${what} to ${url} was refused (${tail(refusal)}); the models do not fit on those cards: lease more devices, ` +
        'or pick a smaller quantisation or context',
      { details },
    );
  }
  return new LeaseError('LEASE_SERVER_ERROR', `${what} to ${url} failed (${tail(refusal)})`, {
    details,
    retryable: status >= 500,
  });
}
