import { randomBytes } from 'node:crypto';
import type { LeaseView, ResidentModel } from '../protocol';

/** A model the double knows. `minDevices` above the leased card count → 507; `loadMs` = loading → ready time. */
export interface DoubleModel {
  id: string;
  minDevices?: number;
  loadMs?: number;
}

/** A standing lease inside the double (what the real server stores). Times in the double's clock (ms). */
export interface DoubleLease {
  id: string;
  devices: number[];
  holder: string;
  model_ids: string[];
  reason: string;
  createdMs: number;
  lastActivityMs: number;
  idle_ttl_s: number | null;
  priority: 1 | 2 | 3;
  vacate_url: string | null;
  vacate_token: string | null;
  /** Open vacate window: asked at / deadline (ms). */
  vacateAskedMs: number | null;
  vacateDeadlineMs: number | null;
}

export interface DoubleResident {
  model_id: string;
  devices: number[];
  state: 'loading' | 'ready' | 'failed' | 'stopped' | 'unloading';
  active_requests: number;
  pinned: boolean;
  /** When `state` is loading: the double's clock time it turns ready. */
  readyAtMs: number | null;
  loaded_by: string | null;
  last_error: string | null;
}

/** A vacate request the double would have POSTed to a lease's `vacate_url`. */
export interface VacateAsk {
  leaseId: string;
  vacateUrl: string;
  requester: string;
  requesterPriority: number;
  atMs: number;
}

/** A reply the server gives: status, JSON body, extra headers. */
export interface BookReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface LeaseBookOptions {
  now: () => number;
  gpus: number[];
  /** Known models; when omitted every model id is accepted and loads instantly. */
  models?: DoubleModel[];
  /** Vacate window (default 180 s). */
  vacateWindowS?: number;
}

export function envelope(status: number, code: string | null, message: string, extra: { param?: string; studioforge?: Record<string, unknown>; retryAfterS?: number } = {}): BookReply {
  const error: Record<string, unknown> = { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code, param: extra.param ?? null };
  if (extra.studioforge) error['studioforge'] = extra.studioforge;
  const headers: Record<string, string> = {};
  if (extra.retryAfterS !== undefined) headers['retry-after'] = String(Math.ceil(extra.retryAfterS));
  else if (status === 503) headers['retry-after'] = '5';
  return { status, body: { error }, headers };
}

function familyOf(holder: string): string {
  return holder.split(/[-:]/)[0] ?? holder;
}

function kindOf(family: string): string {
  if (family === 'crucibleforge' || family === 'benchmark') return 'benchmark';
  if (family.startsWith('clawforge') || family === 'comfyui') return 'render';
  if (family === 'openclaw' || family === 'agent') return 'agent';
  return 'other';
}

/** The lease book of the double: the StudioForge grant rules over an injected clock, no HTTP. */
export class LeaseBook {
  readonly leases = new Map<string, DoubleLease>();
  readonly residents: DoubleResident[] = [];
  readonly vacateAsks: VacateAsk[] = [];
  /** IDs of leases dropped by the idle sweep, in order. */
  readonly expired: string[] = [];
  /** IDs released by DELETE, in order. */
  readonly released: string[] = [];
  priorityHold: { model_id: string; priority: number } | null = null;
  readonly #options: LeaseBookOptions;

  constructor(options: LeaseBookOptions) {
    this.#options = options;
  }

  now(): number {
    return this.#options.now();
  }

  /** Drops leases idle for ≥ their TTL and turns finished loads ready (the real server's periodic sweep). */
  sweep(): void {
    const now = this.now();
    for (const lease of [...this.leases.values()]) {
      if (lease.idle_ttl_s !== null && now - lease.lastActivityMs >= lease.idle_ttl_s * 1000) {
        this.leases.delete(lease.id);
        this.expired.push(lease.id);
      }
    }
    for (const resident of this.residents) {
      if (resident.state === 'loading' && resident.readyAtMs !== null && now >= resident.readyAtMs) {
        resident.state = 'ready';
        resident.readyAtMs = null;
      }
    }
  }

  view(lease: DoubleLease, admin = true): LeaseView {
    const now = this.now();
    const ttl = lease.idle_ttl_s;
    const idleS = (now - lease.lastActivityMs) / 1000;
    const expiresAt = ttl === null ? null : lease.lastActivityMs / 1000 + ttl;
    const untilExpiry = expiresAt === null ? null : expiresAt - now / 1000;
    const vacating = lease.vacateDeadlineMs !== null && now < lease.vacateDeadlineMs;
    const state = vacating
      ? 'vacating'
      : ttl !== null && untilExpiry !== null && untilExpiry <= Math.min(300, 0.25 * ttl)
        ? 'expiring'
        : ttl !== null && idleS >= Math.min(300, 0.5 * ttl)
          ? 'idle'
          : 'active';
    const family = familyOf(lease.holder);
    return {
      id: lease.id,
      devices: [...lease.devices],
      holder: lease.holder,
      model_ids: [...lease.model_ids],
      reason: lease.reason,
      created_at: lease.createdMs / 1000,
      last_activity_at: lease.lastActivityMs / 1000,
      idle_ttl_s: ttl,
      priority: lease.priority,
      idle_s: idleS,
      expires_at: expiresAt,
      state,
      holder_family: family,
      kind: kindOf(family),
      retry_after_s: untilExpiry === null ? null : Math.min(300, Math.max(1, Math.ceil(untilExpiry))),
      vacate_registered: lease.vacate_url !== null,
      ...(admin ? { vacate_url: lease.vacate_url } : {}),
    };
  }

  views(): LeaseView[] {
    this.sweep();
    return [...this.leases.values()].map((lease) => this.view(lease));
  }

  /** Puts a lease on the book directly (someone else's, set up by a test); no grant rules. */
  addLease(spec: Partial<Omit<DoubleLease, 'createdMs' | 'lastActivityMs'>> & { devices: number[] }): DoubleLease {
    const now = this.now();
    const lease: DoubleLease = {
      id: spec.id ?? randomBytes(6).toString('hex'),
      devices: [...spec.devices].sort((a, b) => a - b),
      holder: spec.holder ?? 'someone-else',
      model_ids: spec.model_ids ?? [],
      reason: spec.reason ?? '',
      createdMs: now,
      lastActivityMs: now,
      idle_ttl_s: spec.idle_ttl_s === undefined ? 3600 : spec.idle_ttl_s,
      priority: spec.priority ?? 3,
      vacate_url: spec.vacate_url ?? null,
      vacate_token: spec.vacate_token ?? null,
      vacateAskedMs: null,
      vacateDeadlineMs: null,
    };
    this.leases.set(lease.id, lease);
    return lease;
  }

  /** Places (or replaces) a resident model on cards. */
  setResident(spec: Partial<DoubleResident> & { model_id: string; devices: number[] }): DoubleResident {
    const index = this.residents.findIndex((r) => r.model_id === spec.model_id);
    const resident: DoubleResident = {
      state: 'ready',
      active_requests: 0,
      pinned: false,
      readyAtMs: null,
      loaded_by: null,
      last_error: null,
      ...spec,
    };
    if (index >= 0) this.residents.splice(index, 1, resident);
    else this.residents.push(resident);
    return resident;
  }

  residentRows(): ResidentModel[] {
    this.sweep();
    return this.residents.map((r) => ({
      model_id: r.model_id,
      state: r.state,
      active_requests: r.active_requests,
      loaded_by: r.loaded_by,
      last_error: r.last_error,
      pinned: r.pinned,
      plan: { devices: [...r.devices], ctx_size: 8192, parallel: 4 },
    }));
  }

  /** `POST /api/leases` with the D43 grant rules: refusals first, then the book entry, evictions and loads. */
  grant(raw: unknown, defaultHolder: string): BookReply {
    this.sweep();
    const body = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const devices = body['devices'];
    if (!Array.isArray(devices) || devices.length === 0 || devices.some((d) => !Number.isInteger(d) || d < 0)) {
      return envelope(400, null, 'devices must be a non-empty list of CUDA indices', { param: 'devices' });
    }
    const unknownDevice = devices.find((d) => !this.#options.gpus.includes(d as number));
    if (unknownDevice !== undefined) return envelope(400, null, `unknown device ${String(unknownDevice)}`, { param: 'devices' });
    const wanted = [...new Set(devices as number[])].sort((a, b) => a - b);
    const ttl = body['idle_ttl_s'] === undefined ? 3600 : body['idle_ttl_s'];
    if (ttl !== null && !(typeof ttl === 'number' && ttl > 0)) return envelope(400, null, 'idle_ttl_s must be > 0 or null', { param: 'idle_ttl_s' });
    const priority = body['priority'] ?? 3;
    if (priority !== 1 && priority !== 2 && priority !== 3) return envelope(400, null, 'priority must be 1, 2 or 3', { param: 'priority' });
    const modelIds = Array.isArray(body['model_ids']) ? (body['model_ids'] as string[]) : [];
    const holder = typeof body['holder'] === 'string' && body['holder'] ? body['holder'] : defaultHolder;
    const now = this.now();

    if (this.priorityHold) {
      return envelope(503, 'priority_hold', `a priority ${this.priorityHold.priority} model (${this.priorityHold.model_id}) is loading`, {
        studioforge: { priority_hold: this.priorityHold, retry_after_s: 5 },
        retryAfterS: 5,
      });
    }
    for (const id of modelIds) {
      const known = this.#options.models?.find((m) => m.id === id);
      if (this.#options.models && !known) {
        return envelope(404, 'model_not_found', `model ${id} not found; known: ${this.#options.models.map((m) => m.id).join(', ')}`, { param: 'model_ids' });
      }
      if (known?.minDevices !== undefined && known.minDevices > wanted.length) {
        return envelope(507, 'insufficient_vram', `model ${id} does not fit on GPU ${wanted.join(',')}`, {
          studioforge: { suggestions: [{ devices: this.#options.gpus.slice(0, known.minDevices) }] },
        });
      }
    }
    const blockers = [...this.leases.values()].filter((l) => l.devices.some((d) => wanted.includes(d)));
    if (blockers.length > 0) return this.#refuseForLeases(blockers, priority, holder, now);

    const onCards = this.residents.filter((r) => r.devices.some((d) => wanted.includes(d)) && !modelIds.includes(r.model_id));
    const busy = onCards.filter((r) => r.active_requests > 0 || r.state === 'loading');
    if (busy.length > 0) {
      return envelope(503, 'model_busy', `model(s) ${busy.map((r) => r.model_id).join(', ')} are serving requests on those cards`, {
        studioforge: { busy_models: busy.map((r) => ({ model_id: r.model_id, active_requests: r.active_requests })), retry_after_s: 15 },
        retryAfterS: 15,
      });
    }
    const pinned = onCards.filter((r) => r.pinned);
    if (pinned.length > 0 && body['force'] !== true) {
      return envelope(409, null, `pinned model(s) ${pinned.map((r) => r.model_id).join(', ')} hold those cards; pass force=true to evict`);
    }
    const lease = this.addLease({
      devices: wanted,
      holder,
      model_ids: modelIds,
      reason: typeof body['reason'] === 'string' ? body['reason'] : '',
      idle_ttl_s: ttl as number | null,
      priority,
      vacate_url: typeof body['vacate_url'] === 'string' ? body['vacate_url'] : null,
      vacate_token: typeof body['vacate_token'] === 'string' ? body['vacate_token'] : null,
    });
    for (const resident of onCards) this.residents.splice(this.residents.indexOf(resident), 1);
    for (const id of modelIds) {
      const loadMs = this.#options.models?.find((m) => m.id === id)?.loadMs ?? 0;
      this.setResident({ model_id: id, devices: wanted, state: loadMs > 0 ? 'loading' : 'ready', readyAtMs: loadMs > 0 ? now + loadMs : null, loaded_by: `lease:${lease.id}` });
    }
    return { status: 200, body: this.view(lease) };
  }

  #refuseForLeases(blockers: DoubleLease[], priority: number, requester: string, now: number): BookReply {
    const windowMs = (this.#options.vacateWindowS ?? 180) * 1000;
    const canAsk = blockers.every((l) => l.priority > priority && l.vacate_url !== null);
    if (canAsk) {
      const lapsed = blockers.find((l) => l.vacateDeadlineMs !== null && now >= l.vacateDeadlineMs);
      if (!lapsed) {
        for (const lease of blockers) {
          if (lease.vacateAskedMs === null) {
            lease.vacateAskedMs = now;
            lease.vacateDeadlineMs = now + windowMs;
            this.vacateAsks.push({ leaseId: lease.id, vacateUrl: lease.vacate_url!, requester, requesterPriority: priority, atMs: now });
          }
        }
        return envelope(409, 'lease_vacating', `asked lease(s) ${blockers.map((l) => l.id).join(', ')} to vacate`, {
          studioforge: { leases: blockers.map((l) => this.view(l, false)), retry_after_s: 15, vacate: { state: 'requested' } },
          retryAfterS: 15,
        });
      }
    }
    const retry = Math.min(...blockers.map((l) => this.view(l).retry_after_s ?? 60));
    const vacate = blockers.some((l) => l.vacateDeadlineMs !== null && now >= l.vacateDeadlineMs) ? { vacate: { state: 'timed_out' } } : {};
    return envelope(409, 'lease_conflict', `GPU(s) already leased by ${blockers.map((l) => `${l.holder} (${l.id})`).join(', ')}`, {
      studioforge: { leases: blockers.map((l) => this.view(l, false)), retry_after_s: retry, ...vacate },
      retryAfterS: retry,
    });
  }

  touch(id: string): BookReply {
    this.sweep();
    const lease = this.leases.get(id);
    if (!lease) return envelope(404, 'lease_not_found', `lease ${id} not found`);
    lease.lastActivityMs = Math.max(lease.lastActivityMs, this.now());
    return { status: 200, body: this.view(lease) };
  }

  release(id: string): BookReply {
    this.sweep();
    const lease = this.leases.get(id);
    if (!lease) return envelope(404, 'lease_not_found', `lease ${id} not found`);
    this.leases.delete(id);
    this.released.push(id);
    return { status: 200, body: { released: this.view(lease) } };
  }
}
