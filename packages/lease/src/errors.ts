import { CrucibleError, isTableError, type CrucibleErrorOptions, type ErrorTable } from '@crucibleforge/core';

/** Every way a lease call can fail; each message also says what to do about it. */
export type LeaseErrorCode =
  /** Bad options (empty devices, bad URL, TTL ≤ 0, …): fix the call. */
  | 'LEASE_CONFIG'
  /** The server could not be reached (connection refused, DNS, timeout). Retryable. */
  | 'LEASE_UNREACHABLE'
  /** 401 invalid_api_key: the server has an API key and ours is missing or wrong. */
  | 'LEASE_AUTH'
  /** 403 remote_admin_requires_credential: a remote lease call needs the pairing PIN (or the key). */
  | 'LEASE_ADMIN_CREDENTIAL'
  /** 429 too_many_credential_attempts: locked out after wrong credentials. Retryable later. */
  | 'LEASE_AUTH_LOCKED'
  /** A final refusal: 400 bad argument, a pinned resident that only `force` would evict, … */
  | 'LEASE_REFUSED'
  /** 507 without a retry hint: the models do not fit on those cards. */
  | 'LEASE_INSUFFICIENT_VRAM'
  /** 404 model_not_found: a model id in `modelIds` is unknown to the server. */
  | 'LEASE_MODEL_NOT_FOUND'
  /** The cards stayed taken until the wait deadline. Retryable later. */
  | 'LEASE_WAIT_TIMEOUT'
  /** The server no longer knows the lease (expired after its idle TTL, or released by someone else). */
  | 'LEASE_LOST'
  /** The lease was released by us (the reason of `lease.signal` after a normal release). */
  | 'LEASE_RELEASED'
  /** DELETE failed with something other than 2xx/404. Retryable. */
  | 'LEASE_RELEASE_FAILED'
  /** A 5xx or unexpected status, or a reply we cannot read. */
  | 'LEASE_SERVER_ERROR'
  /** The URL answers, but not like a StudioForge lease server (404/405 without an error envelope). */
  | 'LEASE_UNSUPPORTED_SERVER'
  /** The caller's AbortSignal fired. */
  | 'LEASE_ABORTED'
  /** The local lock is held by a live process (the message names it). */
  | 'LOCAL_LOCK_HELD'
  /** The local lock directory or file could not be read or written. */
  | 'LOCAL_LOCK_IO';

export const LEASE_ERRORS = {
  LEASE_CONFIG: { kind: 'config', retryable: false },
  LEASE_UNREACHABLE: { kind: 'endpoint', retryable: true },
  LEASE_AUTH: { kind: 'endpoint', retryable: false },
  LEASE_ADMIN_CREDENTIAL: { kind: 'endpoint', retryable: false },
  LEASE_AUTH_LOCKED: { kind: 'endpoint', retryable: true },
  LEASE_REFUSED: { kind: 'endpoint', retryable: false },
  LEASE_INSUFFICIENT_VRAM: { kind: 'endpoint', retryable: false },
  LEASE_MODEL_NOT_FOUND: { kind: 'endpoint', retryable: false },
  LEASE_WAIT_TIMEOUT: { kind: 'busy', retryable: true },
  LEASE_LOST: { kind: 'endpoint', retryable: false },
  LEASE_RELEASED: { kind: 'internal', retryable: false },
  LEASE_RELEASE_FAILED: { kind: 'endpoint', retryable: true },
  LEASE_SERVER_ERROR: { kind: 'endpoint', retryable: false },
  LEASE_UNSUPPORTED_SERVER: { kind: 'endpoint', retryable: false },
  LEASE_ABORTED: { kind: 'cancelled', retryable: false },
  LOCAL_LOCK_HELD: { kind: 'busy', retryable: true },
  LOCAL_LOCK_IO: { kind: 'storage', retryable: false },
} as const satisfies ErrorTable<LeaseErrorCode>;

export class LeaseError extends CrucibleError<LeaseErrorCode> {
  constructor(code: LeaseErrorCode, message: string, options: CrucibleErrorOptions = {}) {
    super(code, message, { ...options, kind: LEASE_ERRORS[code].kind, retryable: options.retryable ?? LEASE_ERRORS[code].retryable });
    this.name = 'LeaseError';
  }
}

/** True for a LeaseError with one of the given codes (or any code when none are given). */
export function isLeaseError(value: unknown, ...codes: LeaseErrorCode[]): value is LeaseError {
  return isTableError(LEASE_ERRORS, value, codes);
}
