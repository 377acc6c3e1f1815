/** A lock whose PID is alive but now belongs to a newer process (the holder died, the PID was recycled). */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLeaseError } from './errors';
import { acquireLocalLease, listLocalLocks, lockFileFor, PID_REUSE_MARGIN_MS, type AcquireLocalLeaseOptions, type LocalLockRecord } from './local-lock';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cf-lease-reuse-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const LOCKED_AT = Date.parse('2025-01-02T03:00:00Z');
const NOW = Date.parse('2025-01-02T04:00:00Z');

/** The lock an earlier holder (PID 4242) wrote at LOCKED_AT. */
async function writeHolderLock(device = 0, startedAtMs = LOCKED_AT): Promise<void> {
  const record: LocalLockRecord = {
    lease_id: 'earlier',
    pid: 4242,
    host: 'box',
    holder: 'crucibleforge',
    reason: 'nightly',
    devices: [device],
    started_at: new Date(startedAtMs).toISOString(),
    started_at_ms: startedAtMs,
  };
  await writeFile(lockFileFor(dir, device), JSON.stringify(record));
}

const holder = async (device = 0) => (JSON.parse(await readFile(lockFileFor(dir, device), 'utf8')) as LocalLockRecord).pid;

/** PID 4242 is alive; its process started at `startedAt` (null: unknown). */
const options = (startedAt: number | null | (() => never), extra: Partial<AcquireLocalLeaseOptions> = {}): AcquireLocalLeaseOptions => ({
  devices: [0],
  cacheDir: dir,
  host: 'box',
  pid: 5000,
  now: () => NOW,
  isPidAlive: (pid) => pid === 4242 || pid === 5000,
  processStartMs: (pid) => (pid !== 4242 ? null : typeof startedAt === 'function' ? startedAt() : startedAt),
  ...extra,
});

async function refused(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isLeaseError(error) || error.code !== 'LOCAL_LOCK_HELD') throw new Error(`expected LOCAL_LOCK_HELD, got ${String(error)}`);
  return error.message;
}

describe('acquireLocalLease and a recycled PID', () => {
  it('takes over a lock whose live PID belongs to a process that started after the lock was written', async () => {
    await writeHolderLock();
    const lease = await acquireLocalLease(options(LOCKED_AT + 10 * 60_000));
    expect(await holder()).toBe(5000);
    await lease.release();
  });

  it('keeps the lock when the process started before it (the real holder)', async () => {
    await writeHolderLock();
    expect(await refused(acquireLocalLease(options(LOCKED_AT - 60_000)))).toContain('pid 4242 on box');
    expect(await holder()).toBe(4242);
  });

  it('keeps the lock within the margin, and when the start time is unknown or cannot be read', async () => {
    await writeHolderLock();
    await refused(acquireLocalLease(options(LOCKED_AT + PID_REUSE_MARGIN_MS)));
    await refused(acquireLocalLease(options(null)));
    await refused(
      acquireLocalLease(
        options(() => {
          throw new Error('EACCES');
        }),
      ),
    );
    // an injected isPidAlive without processStartMs: start times are unknown, so the PID alone decides
    const { processStartMs: _unused, ...withoutStart } = options(LOCKED_AT + 10 * 60_000);
    await refused(acquireLocalLease(withoutStart));
    expect(await holder()).toBe(4242);
  });

  it('listLocalLocks calls a recycled PID stale and a real holder live', async () => {
    await writeHolderLock(0);
    await writeHolderLock(1, NOW);
    const locks = await listLocalLocks({ cacheDir: dir, host: 'box', isPidAlive: () => true, processStartMs: () => LOCKED_AT + 10 * 60_000 });
    expect(locks.map((l) => [l.device, l.alive])).toEqual([
      [0, false],
      [1, true],
    ]);
  });

  it.skipIf(process.platform !== 'linux')('reads real start times from /proc by default: our own PID on a lock older than this process is stale', async () => {
    const real = { devices: [0], cacheDir: dir, host: 'box' };
    const ours = (startedAtMs: number) =>
      writeFile(lockFileFor(dir, 0), JSON.stringify({ lease_id: 'x', pid: process.pid, host: 'box', holder: 'x', reason: '', devices: [0], started_at: '', started_at_ms: startedAtMs }));
    await ours(Date.now());
    expect(await refused(acquireLocalLease(real))).toContain(`pid ${process.pid}`);
    // written a day before this process started: whoever wrote it was not this process
    await ours(Date.now() - 86_400_000 - Math.round(process.uptime() * 1000));
    const lease = await acquireLocalLease(real);
    expect(lease.record.pid).toBe(process.pid);
    await lease.release();
  });
});
