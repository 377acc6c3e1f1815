import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLease } from './acquire';
import { acquireLocalLease, listLocalLocks } from './local-lock';
import { createLeaseRegistry, processLeases } from './registry';
import { createManualTime, startLeaseServerDouble, type LeaseServerDouble } from './testing';

let double: LeaseServerDouble | undefined;
afterEach(async () => {
  await double?.close();
  double = undefined;
});

describe('the lease registry (what exit handlers release)', () => {
  it('tracks every granted lease, forgets it when it ends, and releaseAll gives back the rest at once', async () => {
    const time = createManualTime();
    double = await startLeaseServerDouble({ now: time.now, gpus: [0, 1, 2] });
    const registry = createLeaseRegistry();
    const cacheDir = await mkdtemp(join(tmpdir(), 'cf-registry-'));
    const opts = { server: double.url, now: time.now, timers: time.timers, registry };
    const a = await acquireLease({ ...opts, devices: [0] });
    const b = await acquireLease({ ...opts, devices: [1] });
    const local = await acquireLocalLease({ devices: [2], cacheDir, registry });
    expect(registry.held().map((l) => l.id)).toEqual([a.id, b.id, local.id]);
    await a.release();
    expect(registry.held().map((l) => l.id)).toEqual([b.id, local.id]);
    const result = await registry.releaseAll();
    expect(result).toEqual({ released: expect.arrayContaining([b.id, local.id]), failed: [], pending: [] });
    expect(double.state.leases.size).toBe(0);
    expect(await listLocalLocks({ cacheDir })).toEqual([]);
    expect(registry.held()).toEqual([]);
  });

  it('a failing release is reported, and a hanging one does not hold up the exit past the bound', async () => {
    const time = createManualTime();
    double = await startLeaseServerDouble({ now: time.now, gpus: [0, 1] });
    const registry = createLeaseRegistry();
    let hang = false;
    const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
      hang && init?.method === 'DELETE' ? new Promise(() => undefined) : globalThis.fetch(input, init);
    const opts = { server: double.url, now: time.now, timers: time.timers, registry, fetch };
    const failing = await acquireLease({ ...opts, devices: [0] });
    double.script({ method: 'DELETE', status: 500, body: { error: { message: 'db locked', code: 'internal' } } });
    const first = await registry.releaseAll();
    expect(first.failed).toEqual([{ leaseId: failing.id, message: expect.stringContaining('db locked') }]);
    hang = true;
    const result = await registry.releaseAll({ timeoutMs: 50 });
    expect(result.pending).toEqual([failing.id]);
  });

  it('by default a lease joins processLeases; registry: null opts out', async () => {
    const time = createManualTime();
    double = await startLeaseServerDouble({ now: time.now, gpus: [0, 1] });
    const tracked = await acquireLease({ server: double.url, devices: [0], now: time.now, timers: time.timers });
    const untracked = await acquireLease({ server: double.url, devices: [1], now: time.now, timers: time.timers, registry: null });
    expect(processLeases.held()).toContain(tracked);
    expect(processLeases.held()).not.toContain(untracked);
    await Promise.all([tracked.release(), untracked.release()]);
    expect(processLeases.held()).not.toContain(tracked);
  });
});
