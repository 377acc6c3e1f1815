import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { realSleep, type Sleep } from '@crucibleforge/core';
import { processLeases, type LeaseRegistry } from './registry';
import { LeaseError } from './errors';
import { procStartTime, type ProcessStartTime } from './proc-start';
import type { Lease, LeaseLoss, LeaseState, ReleaseResult } from './types';

/** What a lock file says (JSON): who holds the GPU and since when. */
export interface LocalLockRecord {
  lease_id: string;
  pid: number;
  host: string;
  holder: string;
  reason: string;
  devices: number[];
  /** Wall-clock start, ISO 8601 and epoch milliseconds. */
  started_at: string;
  started_at_ms: number;
}

export interface AcquireLocalLeaseOptions {
  /** GPU indices to lock; every one must be free (all or nothing). */
  devices: readonly number[];
  /** Directory for the lock files (created when missing), e.g. `~/.cache/crucibleforge/locks`. */
  cacheDir: string;
  /** The holder's PID, written into the file (default `process.pid`). */
  pid?: number;
  /** Default `os.hostname()`. A lock from another host is never judged stale (its PID cannot be checked). */
  host?: string;
  holder?: string;
  reason?: string;
  /** Wall-clock milliseconds for the start time and waits (default Date.now). */
  now?: () => number;
  /** Default: `process.kill(pid, 0)` (a probe, sends nothing); EPERM counts as alive. May be async. */
  isPidAlive?: (pid: number) => boolean | Promise<boolean>;
  /**
   * When a live holder PID's process started (epoch ms, null = unknown). A process that started after the
   * lock was written is not its holder but a recycled PID, so the lock is stale. Default: from /proc
   * (`procStartTime()`) when `isPidAlive` is the default too; with an injected `isPidAlive`, unknown.
   */
  processStartMs?: ProcessStartTime;
  /** Keep trying this long while a live process holds a GPU (default 0: refuse at once). */
  waitMs?: number;
  pollMs?: number;
  sleep?: Sleep;
  signal?: AbortSignal;
  /** Lease id generator (default 12 random hex chars). */
  newId?: () => string;
  /** Where the lease is tracked for the app's exit handlers (default `processLeases`; null: not tracked). */
  registry?: LeaseRegistry | null;
}

export interface LocalLease extends Lease {
  readonly kind: 'local';
  readonly lockFiles: readonly string[];
  readonly record: LocalLockRecord;
}

/** Probes a PID without touching the process (signal 0). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockFileFor(cacheDir: string, device: number): string {
  return join(cacheDir, `gpu-${device}.lock`);
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function ioError(action: string, path: string, error: unknown): LeaseError {
  return new LeaseError('LOCAL_LOCK_IO', `could not ${action} ${path}: ${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
    details: { path },
  });
}

/** Reads a lock file: the record, `null` when it vanished, `'garbage'` when it is not one of ours. */
async function readRecord(path: string): Promise<LocalLockRecord | null | 'garbage'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (errno(error) === 'ENOENT') return null;
    throw ioError('read', path, error);
  }
  try {
    const record = JSON.parse(text) as Partial<LocalLockRecord>;
    if (typeof record.pid === 'number' && typeof record.lease_id === 'string' && typeof record.host === 'string') return record as LocalLockRecord;
  } catch {
    // fall through
  }
  return 'garbage';
}

type Verdict = { live: true; why: string } | { live: false };

/**
 * A live PID whose process started more than this after the lock was written is a recycled PID, not the
 * holder. The margin absorbs boot time in whole seconds and small clock adjustments; within it a lock
 * counts as held (refusing is the safe mistake: two runs on one GPU is the bad one).
 */
export const PID_REUSE_MARGIN_MS = 5_000;

/** How to tell whether a lock's holder still runs on this host. */
interface Liveness {
  host: string;
  isPidAlive: (pid: number) => boolean | Promise<boolean>;
  processStartMs: ProcessStartTime;
}

function liveness(options: { host?: string | undefined; isPidAlive?: Liveness['isPidAlive'] | undefined; processStartMs?: ProcessStartTime | undefined }): Liveness {
  return {
    host: options.host ?? hostname(),
    isPidAlive: options.isPidAlive ?? isProcessAlive,
    processStartMs: options.processStartMs ?? (options.isPidAlive ? () => null : procStartTime()),
  };
}

async function startedAfter(pid: number, lockedAtMs: number, processStartMs: ProcessStartTime): Promise<boolean> {
  let started: number | null;
  try {
    started = await processStartMs(pid);
  } catch {
    return false;
  }
  return started !== null && started > lockedAtMs + PID_REUSE_MARGIN_MS;
}

/** A lock (or takeover guard) record: live, or stale (garbage, a dead PID, a PID recycled since it was written). */
async function judge(record: Partial<LocalLockRecord> & { pid: number; host: string } | 'garbage', world: Liveness): Promise<Verdict> {
  if (record === 'garbage') return { live: false };
  if (record.host !== world.host) return { live: true, why: `on another host (${record.host}), so its PID cannot be checked` };
  if (!(await world.isPidAlive(record.pid))) return { live: false };
  // A start time of 0 (or none, as in a takeover guard) says nothing about when the lock was written.
  const lockedAt = record.started_at_ms;
  if (typeof lockedAt === 'number' && lockedAt > 0 && (await startedAfter(record.pid, lockedAt, world.processStartMs))) return { live: false };
  return { live: true, why: 'still running' };
}

/** Creates `path` holding `content` only if it does not exist: link(2) of a fully written temp file (atomic like O_EXCL, and never half-written). */
async function createExclusive(path: string, content: string, tmpSuffix: string): Promise<boolean> {
  const tmp = `${path}.${tmpSuffix}.tmp`;
  try {
    await writeFile(tmp, content, { flag: 'wx' });
  } catch (error) {
    throw ioError('write', tmp, error);
  }
  try {
    await link(tmp, path);
    return true;
  } catch (error) {
    if (errno(error) === 'EEXIST') return false;
    throw ioError('create', path, error);
  } finally {
    await unlink(tmp).catch(() => {});
  }
}

interface World extends Liveness {
  pid: number;
  id: string;
}

type LockAttempt = { ok: true } | { ok: false; path: string; record: LocalLockRecord | 'garbage'; why: string };

/** One try at one GPU's lock file; a stale one (dead PID on this host, or garbage) is taken over under a `.takeover` guard. */
async function lockOne(path: string, content: string, world: World): Promise<LockAttempt> {
  for (let round = 0; round < 5; round += 1) {
    if (await createExclusive(path, content, world.id)) return { ok: true };
    const existing = await readRecord(path);
    if (existing === null) continue; // released between our link and read
    const verdict = await judge(existing, world);
    if (verdict.live) return { ok: false, path, record: existing, why: verdict.why };
    // Stale: only one process may replace it, so take the guard first.
    const guard = `${path}.takeover`;
    const guardContent = JSON.stringify({ pid: world.pid, host: world.host, lease_id: world.id });
    if (!(await createExclusive(guard, guardContent, world.id))) {
      const other = await readRecord(guard);
      if (other !== null && (await judge(other, world)).live) {
        return { ok: false, path, record: existing, why: 'being taken over by another process right now' };
      }
      await unlink(guard).catch(() => {}); // its owner died mid-takeover
      continue;
    }
    try {
      const again = await readRecord(path);
      if (again !== null && JSON.stringify(again) === JSON.stringify(existing)) {
        await unlink(path).catch((error: unknown) => {
          if (errno(error) !== 'ENOENT') throw ioError('remove stale lock', path, error);
        });
      }
      if (await createExclusive(path, content, world.id)) return { ok: true };
    } finally {
      await unlink(guard).catch(() => {});
    }
  }
  const last = await readRecord(path);
  return { ok: false, path, record: last ?? 'garbage', why: 'kept changing while we tried to take it' };
}

function heldMessage(device: number, attempt: Extract<LockAttempt, { ok: false }>): string {
  const r = attempt.record;
  const who =
    r === 'garbage'
      ? 'an unreadable lock'
      : `pid ${r.pid} on ${r.host} (holder ${r.holder}${r.reason ? `, "${r.reason}"` : ''}, since ${r.started_at}, lease ${r.lease_id})`;
  return (
    `GPU ${device} is locked by ${who}, ${attempt.why}; lock file ${attempt.path}. ` +
    'Wait for that run to finish or stop it yourself (this tool never kills a process); a lock whose process has died is taken over automatically.'
  );
}

/** Removes our lock files (only those still naming our lease id). */
async function unlockAll(paths: readonly string[], leaseId: string): Promise<number> {
  let removed = 0;
  for (const path of paths) {
    const record = await readRecord(path);
    if (record !== null && record !== 'garbage' && record.lease_id === leaseId) {
      try {
        await unlink(path);
        removed += 1;
      } catch (error) {
        if (errno(error) !== 'ENOENT') throw ioError('remove', path, error);
      }
    }
  }
  return removed;
}

/**
 * Locks GPUs on this machine when there is no lease server: one exclusive lock file per GPU under
 * `cacheDir`, holding the holder's PID, host and start time. A lock whose PID is dead, or whose PID now
 * belongs to a process that started after the lock was written (a recycled PID), is taken over;
 * a live one refuses (LOCAL_LOCK_HELD naming the holder), after `waitMs` if given. Never kills anything.
 */
export async function acquireLocalLease(options: AcquireLocalLeaseOptions): Promise<LocalLease> {
  if (!Array.isArray(options.devices) || options.devices.length === 0 || options.devices.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new LeaseError('LEASE_CONFIG', `devices must list GPU indices (whole numbers ≥ 0), got ${JSON.stringify(options.devices)}`);
  }
  if (!options.cacheDir) throw new LeaseError('LEASE_CONFIG', 'cacheDir is required for a local lease');
  const devices = [...new Set(options.devices)].sort((a, b) => a - b);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const world: World = {
    ...liveness(options),
    pid: options.pid ?? process.pid,
    id: (options.newId ?? (() => randomBytes(6).toString('hex')))(),
  };
  try {
    await mkdir(options.cacheDir, { recursive: true });
  } catch (error) {
    throw ioError('create the lock directory', options.cacheDir, error);
  }
  const startedMs = now();
  const record: LocalLockRecord = {
    lease_id: world.id,
    pid: world.pid,
    host: world.host,
    holder: options.holder ?? 'crucibleforge',
    reason: options.reason ?? '',
    devices,
    started_at: new Date(startedMs).toISOString(),
    started_at_ms: startedMs,
  };
  const content = `${JSON.stringify(record, null, 2)}\n`;
  const deadline = startedMs + (options.waitMs ?? 0);
  for (;;) {
    const taken: string[] = [];
    let refusal: { device: number; attempt: Extract<LockAttempt, { ok: false }> } | null = null;
    for (const device of devices) {
      const path = lockFileFor(options.cacheDir, device);
      const attempt = await lockOne(path, content, world);
      if (!attempt.ok) {
        refusal = { device, attempt };
        break;
      }
      taken.push(path);
    }
    if (refusal === null) {
      const lease = new LocalLeaseHandle(record, taken);
      (options.registry === undefined ? processLeases : options.registry)?.track(lease);
      return lease;
    }
    await unlockAll(taken, world.id);
    if (now() >= deadline) {
      throw new LeaseError('LOCAL_LOCK_HELD', heldMessage(refusal.device, refusal.attempt), {
        retryable: true,
        details: { device: refusal.device, path: refusal.attempt.path, holder: refusal.attempt.record },
      });
    }
    try {
      await sleep(Math.min(options.pollMs ?? 2_000, Math.max(0, deadline - now())), options.signal);
    } catch (error) {
      throw new LeaseError('LEASE_ABORTED', `waiting for the local GPU lock was aborted`, { cause: error });
    }
  }
}

class LocalLeaseHandle implements LocalLease {
  readonly kind = 'local' as const;
  readonly id: string;
  readonly devices: readonly number[];
  readonly lockFiles: readonly string[];
  readonly record: LocalLockRecord;
  /** A local lease is never lost behind our back (nothing expires it); stays pending. */
  readonly lost: Promise<LeaseLoss> = new Promise(() => {});
  readonly #controller = new AbortController();
  #state: LeaseState = 'held';
  #release: Promise<ReleaseResult> | undefined;

  constructor(record: LocalLockRecord, lockFiles: string[]) {
    this.record = record;
    this.id = record.lease_id;
    this.devices = Object.freeze([...record.devices]);
    this.lockFiles = Object.freeze([...lockFiles]);
  }

  get state(): LeaseState {
    return this.#state;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  release(): Promise<ReleaseResult> {
    this.#release ??= (async () => {
      this.#state = 'releasing';
      try {
        const removed = await unlockAll(this.lockFiles, this.id);
        this.#state = 'released';
        this.#controller.abort(new LeaseError('LEASE_RELEASED', `local lease ${this.id} was released`));
        return { leaseId: this.id, outcome: removed > 0 ? 'released' : 'already-gone' };
      } catch (error) {
        this.#state = 'held';
        this.#release = undefined;
        throw error;
      }
    })();
    return this.#release;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }
}

/** One lock file as found on disk, for `lease status` without a server. */
export interface LocalLockInfo {
  device: number;
  path: string;
  record: LocalLockRecord | null;
  /** `true` live, `false` stale (taken over by the next acquire), `'unknown'` another host's or unreadable. */
  alive: boolean | 'unknown';
}

/** Lists the GPU lock files under `cacheDir` ([] when the directory does not exist). */
export async function listLocalLocks(options: {
  cacheDir: string;
  host?: string;
  isPidAlive?: (pid: number) => boolean | Promise<boolean>;
  /** As for {@link acquireLocalLease}: a PID recycled since the lock was written counts as stale. */
  processStartMs?: ProcessStartTime;
}): Promise<LocalLockInfo[]> {
  let names: string[];
  try {
    names = await readdir(options.cacheDir);
  } catch (error) {
    if (errno(error) === 'ENOENT') return [];
    throw ioError('list', options.cacheDir, error);
  }
  const world = liveness(options);
  const found: LocalLockInfo[] = [];
  for (const name of names) {
    const match = /^gpu-(\d+)\.lock$/.exec(name);
    if (!match) continue;
    const path = join(options.cacheDir, name);
    const record = await readRecord(path);
    if (record === null) continue;
    const alive = record === 'garbage' || record.host !== world.host ? 'unknown' : (await judge(record, world)).live;
    found.push({ device: Number(match[1]), path, record: record === 'garbage' ? null : record, alive });
  }
  return found.sort((a, b) => a.device - b.device);
}
