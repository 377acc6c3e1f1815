import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLeaseError, type LeaseError } from './errors';
import { acquireLocalLease, listLocalLocks, lockFileFor, type AcquireLocalLeaseOptions, type LocalLockRecord } from './local-lock';

let dir = '';
const children: ChildProcess[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cf-lease-lock-'));
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

const alive = new Set<number>();
const base = (extra: Partial<AcquireLocalLeaseOptions> = {}): AcquireLocalLeaseOptions => ({
  devices: [0],
  cacheDir: dir,
  host: 'box',
  now: () => Date.parse('2025-01-02T03:04:05Z'),
  isPidAlive: (pid) => alive.has(pid),
  ...extra,
});

async function record(device: number): Promise<LocalLockRecord> {
  return JSON.parse(await readFile(lockFileFor(dir, device), 'utf8')) as LocalLockRecord;
}

async function refusal(promise: Promise<unknown>): Promise<LeaseError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isLeaseError(error)) throw new Error(`expected a LeaseError, got ${String(error)}`);
  return error;
}

describe('acquireLocalLease', () => {
  it('writes one lock file per GPU with PID, host, start time and reason, and removes them on release', async () => {
    alive.add(100);
    const lease = await acquireLocalLease(base({ devices: [1, 0], pid: 100, reason: 'nightly run', holder: 'crucibleforge' }));
    expect(lease.kind).toBe('local');
    expect(lease.devices).toEqual([0, 1]);
    expect(await record(0)).toEqual({
      lease_id: lease.id,
      pid: 100,
      host: 'box',
      holder: 'crucibleforge',
      reason: 'nightly run',
      devices: [0, 1],
      started_at: '2025-01-02T03:04:05.000Z',
      started_at_ms: Date.parse('2025-01-02T03:04:05Z'),
    });
    expect((await record(1)).lease_id).toBe(lease.id);
    expect(await lease.release()).toEqual({ leaseId: lease.id, outcome: 'released' });
    expect(existsSync(lockFileFor(dir, 0)) || existsSync(lockFileFor(dir, 1))).toBe(false);
    expect(lease.signal.aborted).toBe(true);
  });

  it('refuses a GPU held by a live PID, naming the holder, and rolls back the GPUs it already took', async () => {
    alive.add(111);
    const first = await acquireLocalLease(base({ devices: [1], pid: 111, reason: 'long eval' }));
    const error = await refusal(acquireLocalLease(base({ devices: [0, 1], pid: 222 })));
    expect(error.code).toBe('LOCAL_LOCK_HELD');
    expect(error.message).toContain('GPU 1');
    expect(error.message).toContain('pid 111 on box');
    expect(error.message).toContain('"long eval"');
    expect(error.message).toContain(lockFileFor(dir, 1));
    expect(error.message).toContain('never kills');
    expect(existsSync(lockFileFor(dir, 0))).toBe(false);
    expect((await record(1)).pid).toBe(111);
    await first.release();
  });

  it('takes over a lock whose PID is dead', async () => {
    const probed: number[] = [];
    await writeFile(lockFileFor(dir, 0), JSON.stringify({ lease_id: 'old', pid: 999, host: 'box', holder: 'x', reason: '', devices: [0], started_at: '', started_at_ms: 0 }));
    const lease = await acquireLocalLease(base({ pid: 333, isPidAlive: (pid) => (probed.push(pid), pid === 333) }));
    expect(probed).toContain(999);
    expect(await record(0)).toMatchObject({ pid: 333, lease_id: lease.id });
    await lease.release();
  });

  it('checks real PIDs: a running process keeps its lock (and is left running); once it exits the lock is taken over', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(child);
    await new Promise((resolve) => child.once('spawn', resolve));
    await writeFile(lockFileFor(dir, 0), JSON.stringify({ lease_id: 'theirs', pid: child.pid, host: 'box', holder: 'other', reason: '', devices: [0], started_at: '', started_at_ms: 0 }));
    const error = await refusal(acquireLocalLease({ devices: [0], cacheDir: dir, host: 'box' }));
    expect(error.message).toContain(`pid ${child.pid}`);
    expect(child.exitCode).toBe(null);
    expect(child.signalCode).toBe(null);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const lease = await acquireLocalLease({ devices: [0], cacheDir: dir, host: 'box' });
    expect((await record(0)).pid).toBe(process.pid);
    await lease.release();
  });

  it('never judges a lock from another host stale', async () => {
    await writeFile(lockFileFor(dir, 0), JSON.stringify({ lease_id: 'far', pid: 1, host: 'other-box', holder: 'x', reason: '', devices: [0], started_at: 'then', started_at_ms: 0 }));
    const error = await refusal(acquireLocalLease(base({ isPidAlive: () => false })));
    expect(error.message).toContain('another host (other-box)');
  });

  it('takes over an unreadable lock file', async () => {
    await writeFile(lockFileFor(dir, 0), 'not json');
    const lease = await acquireLocalLease(base({ pid: 5 }));
    expect((await record(0)).lease_id).toBe(lease.id);
  });

  it('lets exactly one of two concurrent acquirers win, and a takeover never removes a lock another process just took', async () => {
    alive.add(1).add(2);
    const results = await Promise.allSettled([acquireLocalLease(base({ pid: 1 })), acquireLocalLease(base({ pid: 2 }))]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    await rm(lockFileFor(dir, 0));
    await writeFile(lockFileFor(dir, 0), JSON.stringify({ lease_id: 'dead', pid: 999, host: 'box', holder: 'x', reason: '', devices: [0], started_at: '', started_at_ms: 0 }));
    alive.add(3).add(4);
    // Worst case for a naive takeover: B judged the old lock stale, then A took it over before B acts.
    let aDone!: () => void;
    const aAcquired = new Promise<void>((resolve) => (aDone = resolve));
    const a = acquireLocalLease(base({ pid: 3 })).finally(aDone);
    const b = acquireLocalLease(
      base({
        pid: 4,
        isPidAlive: async (pid) => {
          if (pid === 999) await aAcquired;
          return alive.has(pid);
        },
      }),
    );
    const race = await Promise.allSettled([a, b]);
    expect(race[0].status).toBe('fulfilled');
    expect(race[1].status).toBe('rejected');
    const winner = race[0] as PromiseFulfilledResult<{ id: string }>;
    expect((await record(0)).lease_id).toBe(winner.value.id);
  });

  it('waits for a live holder when waitMs is given', async () => {
    alive.add(10).add(20);
    const first = await acquireLocalLease(base({ pid: 10 }));
    let clock = 0;
    const second = await acquireLocalLease(
      base({
        pid: 20,
        now: () => clock,
        waitMs: 10_000,
        sleep: async (ms) => {
          clock += ms;
          await first.release();
        },
      }),
    );
    expect((await record(0)).pid).toBe(20);
    expect(clock).toBe(2_000);
    await second.release();
  });

  it('release leaves a lock that is no longer ours', async () => {
    alive.add(1);
    const lease = await acquireLocalLease(base({ pid: 1 }));
    await writeFile(lockFileFor(dir, 0), JSON.stringify({ ...(await record(0)), lease_id: 'someone-else' }));
    expect(await lease.release()).toEqual({ leaseId: lease.id, outcome: 'already-gone' });
    expect(existsSync(lockFileFor(dir, 0))).toBe(true);
  });

  it('lists locks with live/stale status', async () => {
    alive.add(7);
    const lease = await acquireLocalLease(base({ pid: 7, devices: [2] }));
    await writeFile(lockFileFor(dir, 5), JSON.stringify({ lease_id: 'dead', pid: 8, host: 'box', holder: 'x', reason: '', devices: [5], started_at: '', started_at_ms: 0 }));
    const locks = await listLocalLocks({ cacheDir: dir, host: 'box', isPidAlive: (pid) => alive.has(pid) });
    expect(locks.map((l) => [l.device, l.alive, l.record?.pid])).toEqual([
      [2, true, 7],
      [5, false, 8],
    ]);
    expect(await listLocalLocks({ cacheDir: join(dir, 'missing') })).toEqual([]);
    await lease.release();
  });

  it('rejects bad devices', async () => {
    expect((await refusal(acquireLocalLease(base({ devices: [] })))).code).toBe('LEASE_CONFIG');
    expect((await refusal(acquireLocalLease(base({ devices: [1.5] })))).code).toBe('LEASE_CONFIG');
  });
});
