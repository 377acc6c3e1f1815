/**
 * The StudioForge lease wire format (integrations.md §1): shapes we read and write, and tolerant
 * readers for them. Fields we do not use are kept as `unknown` extras, never validated away.
 */

/** Lease priority class: 1 active chat, 2 dispatched agent (benchmarks send 2), 3 background. */
export type LeasePriority = 1 | 2 | 3;

/** The server's lease row (`LeaseView`): flat object, `id` is 12 hex chars on a real server. */
export interface LeaseView {
  id: string;
  devices: number[];
  holder: string;
  model_ids: string[];
  reason: string;
  created_at: number;
  last_activity_at: number;
  idle_ttl_s: number | null;
  priority: LeasePriority;
  expires_at: number | null;
  state: 'active' | 'idle' | 'expiring' | 'vacating' | (string & {});
  holder_family?: string;
  kind?: string;
  idle_s?: number;
  retry_after_s?: number | null;
  vacate_registered?: boolean;
  vacate_url?: string | null;
  [extra: string]: unknown;
}

/** The body of `POST /api/leases`. */
export interface LeaseRequestBody {
  devices: number[];
  model_ids: string[];
  holder: string;
  reason: string;
  idle_ttl_s: number | null;
  priority: LeasePriority;
  force: boolean;
  vacate_url?: string;
  vacate_token?: string;
}

/** One `loaded[]` row of `GET /api/status` (InstanceInfo); only the fields we read are typed. */
export interface ResidentModel {
  model_id: string;
  state: 'stopped' | 'loading' | 'ready' | 'failed' | 'unloading' | (string & {});
  active_requests?: number;
  last_error?: string | null;
  plan?: { devices?: number[]; ctx_size?: number; parallel?: number; [extra: string]: unknown };
  [extra: string]: unknown;
}

/** `error.studioforge` details that drive the retry loop. */
export interface RefusalDetails {
  retry_after_s?: number;
  leases?: LeaseView[];
  busy_models?: Array<{ model_id: string; [extra: string]: unknown }>;
  priority_hold?: { model_id?: string; priority?: number };
  vacate?: { state?: string; [extra: string]: unknown };
  [extra: string]: unknown;
}

/** A non-2xx reply, read from the OpenAI-shaped error envelope `{error: {message, type, code, param, studioforge}}`. */
export interface Refusal {
  status: number;
  /** `error.code`, or null when the body had no envelope. */
  code: string | null;
  message: string;
  param: string | null;
  details: RefusalDetails;
  /** Seconds from `error.studioforge.retry_after_s`, else the `Retry-After` header, else null. */
  retryAfterS: number | null;
  /** True when the body carried an `error` object at all (tells a StudioForge server from a stray 404). */
  enveloped: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positiveNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) && Number(value) >= 0) {
    return Number(value);
  }
  return null;
}

/** Reads a refusal from a status, the parsed body (or raw text) and the `Retry-After` header. */
export function readRefusal(status: number, body: unknown, retryAfterHeader: string | null): Refusal {
  const error = isRecord(body) && isRecord(body['error']) ? body['error'] : null;
  const details: RefusalDetails = error && isRecord(error['studioforge']) ? (error['studioforge'] as RefusalDetails) : {};
  const text = typeof body === 'string' ? body.trim().slice(0, 300) : '';
  const message =
    error && typeof error['message'] === 'string'
      ? error['message']
      : isRecord(body) && typeof body['detail'] === 'string'
        ? body['detail']
        : text || `HTTP ${status}`;
  return {
    status,
    code: error && typeof error['code'] === 'string' ? error['code'] : null,
    message,
    param: error && typeof error['param'] === 'string' ? error['param'] : null,
    details,
    retryAfterS: positiveNumber(details.retry_after_s) ?? positiveNumber(retryAfterHeader),
    enveloped: error !== null,
  };
}

/** The lease id from a grant reply: `id` or `lease_id`, top level or under `lease`. */
export function leaseIdOf(body: unknown): string | null {
  if (!isRecord(body)) return null;
  for (const record of [body, isRecord(body['lease']) ? body['lease'] : null]) {
    if (!record) continue;
    for (const key of ['id', 'lease_id']) {
      const value = record[key];
      if (typeof value === 'string' && value.length > 0) return value;
    }
  }
  return null;
}

/** The LeaseView inside a grant/touch/release reply (flat, or under `lease` / `released`). */
export function leaseViewOf(body: unknown): Partial<LeaseView> {
  if (!isRecord(body)) return {};
  for (const key of ['lease', 'released']) {
    if (isRecord(body[key])) return body[key] as Partial<LeaseView>;
  }
  return body as Partial<LeaseView>;
}

/** The `loaded[]` rows of a `GET /api/status` reply ([] when absent). */
export function residentsOf(body: unknown): ResidentModel[] {
  if (!isRecord(body) || !Array.isArray(body['loaded'])) return [];
  return body['loaded'].filter((row): row is ResidentModel => isRecord(row) && typeof row['model_id'] === 'string');
}

/** The `leases` rows of a `GET /api/leases` or `GET /api/status` reply ([] when absent). */
export function leasesOf(body: unknown): LeaseView[] {
  if (!isRecord(body) || !Array.isArray(body['leases'])) return [];
  return body['leases'].filter((row): row is LeaseView => isRecord(row) && typeof row['id'] === 'string');
}
