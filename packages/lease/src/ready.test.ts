import { afterEach, describe, expect, it } from 'vitest';
import { acquireLease } from './acquire';
import { isLeaseError } from './errors';
import { waitForModelReady, type WaitForModelReadyOptions } from './ready';
import { createManualTime, startLeaseServerDouble, type LeaseServerDouble, type LeaseServerDoubleOptions } from './testing';

let double: LeaseServerDouble | undefined;
afterEach(async () => {
  await double?.close();
  double = undefined;
});

async function setup(options: LeaseServerDoubleOptions = {}) {
  const time = createManualTime();
  double = await startLeaseServerDouble({ now: time.now, ...options });
  const server = double;
  const wait = (extra: Partial<WaitForModelReadyOptions> = {}) =>
    waitForModelReady({ server: server.url, modelId: 'org/model', now: time.now, sleep: time.sleep, ...extra });
  return { time, double: server, wait };
}

describe('waitForModelReady', () => {
  it('polls /api/status until the leased model has loaded', async () => {
    const { time, double, wait } = await setup({ models: [{ id: 'org/model', loadMs: 9_000 }] });
    const lease = await acquireLease({ server: double.url, devices: [0], modelIds: ['org/model'], timers: time.timers, now: time.now });
    expect(double.state.residents[0]).toMatchObject({ model_id: 'org/model', state: 'loading' });
    const result = await wait();
    expect(result.kind).toBe('ready');
    if (result.kind === 'ready') {
      expect(result.waitedMs).toBe(10_000);
      expect(result.model.plan?.devices).toEqual([0]);
    }
    expect(time.sleeps).toEqual([2_000, 2_000, 2_000, 2_000, 2_000]);
    await lease.release();
  });

  it('reports a model that never shows up (a silent load failure)', async () => {
    const { wait } = await setup();
    const result = await wait({ appearTimeoutMs: 20_000 });
    expect(result).toMatchObject({ kind: 'never-appeared', waitedMs: 20_000 });
  });

  it('reports a failed load with the server error, and a model that vanished while loading', async () => {
    const failed = await setup();
    failed.double.state.setResident({ model_id: 'org/model', devices: [0], state: 'failed', last_error: 'CUDA out of memory' });
    const result = await failed.wait();
    expect(result.kind).toBe('failed');
    if (result.kind === 'failed') expect(result.message).toContain('CUDA out of memory');
    await double?.close();

    const gone = await setup();
    gone.double.state.setResident({ model_id: 'org/model', devices: [0], state: 'loading', readyAtMs: gone.time.now() + 60_000 });
    const vanished = await gone.wait({
      sleep: async (ms) => {
        gone.double.state.residents.splice(0); // unloaded by someone else
        await gone.time.advance(ms);
      },
    });
    expect(vanished.kind).toBe('vanished');
  });

  it('times out with the last state when loading takes too long', async () => {
    const { double, wait, time } = await setup();
    double.state.setResident({ model_id: 'org/model', devices: [0], state: 'loading', readyAtMs: time.now() + 3_600_000 });
    const result = await wait({ timeoutMs: 30_000 });
    expect(result).toMatchObject({ kind: 'timeout', waitedMs: 30_000, model: { state: 'loading' } });
  });

  it('tolerates up to maxConsecutiveErrors unreadable replies, not more', async () => {
    const ok = await setup();
    for (let i = 0; i < 3; i += 1) ok.double.script({ path: '/api/status', status: 502, body: { error: { message: 'gateway', code: 'upstream_error' } } });
    ok.double.state.setResident({ model_id: 'org/model', devices: [0] });
    expect((await ok.wait()).kind).toBe('ready');
    await double?.close();

    const bad = await setup();
    for (let i = 0; i < 4; i += 1) bad.double.script({ path: '/api/status', status: 502, body: { error: { message: 'gateway', code: 'upstream_error' } } });
    bad.double.state.setResident({ model_id: 'org/model', devices: [0] });
    const error = await bad.wait().catch((e: unknown) => e);
    expect(isLeaseError(error, 'LEASE_SERVER_ERROR')).toBe(true);
  });

  it('fails at once on an auth refusal', async () => {
    const { wait, time } = await setup({ apiKey: 'k' });
    const error = await wait().catch((e: unknown) => e);
    expect(isLeaseError(error, 'LEASE_AUTH')).toBe(true);
    expect(time.sleeps).toEqual([]);
    expect((await wait({ auth: { apiKey: 'k' }, appearTimeoutMs: 0 })).kind).toBe('never-appeared');
  });
});
