import { afterEach, describe, expect, it } from 'vitest';
import { acquireLease, type AcquireLeaseOptions } from './acquire';
import { isLeaseError, type LeaseError } from './errors';
import { createManualTime, startLeaseServerDouble, type LeaseServerDouble, type LeaseServerDoubleOptions } from './testing';
import type { LeaseProgress } from './types';

let double: LeaseServerDouble | undefined;
afterEach(async () => {
  await double?.close();
  double = undefined;
});

async function setup(options: LeaseServerDoubleOptions = {}) {
  const time = createManualTime();
  double = await startLeaseServerDouble({ now: time.now, ...options });
  const events: LeaseProgress[] = [];
  const server = double;
  const acquire = (extra: Partial<AcquireLeaseOptions> = {}) =>
    acquireLease({
      server: server.url,
      devices: [0],
      now: time.now,
      sleep: time.sleep,
      timers: time.timers,
      random: () => 0.5, // jitter factor exactly 1
      onProgress: (event) => events.push(event),
      ...extra,
    });
  return { time, double: server, events, acquire };
}

async function failure(promise: Promise<unknown>): Promise<LeaseError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isLeaseError(error)) throw new Error(`expected a LeaseError, got ${String(error)}`);
  return error;
}

const waits = (events: LeaseProgress[]) => events.filter((e): e is Extract<LeaseProgress, { type: 'lease-wait' }> => e.type === 'lease-wait');
const posts = (d: LeaseServerDouble) => d.requests.filter((r) => r.method === 'POST' && r.path === '/api/leases');

describe('acquireLease: the grant', () => {
  it('sends the documented body and returns a lease with the server id and a 5-minute TTL with a TTL/3 heartbeat', async () => {
    const { double, acquire, events, time } = await setup();
    const lease = await acquire({ server: `${double.url}/v1/`, devices: [1, 0, 1], modelIds: ['org/model/q4'], reason: 'smoke run' });
    expect(posts(double)[0]!.body).toEqual({
      devices: [0, 1],
      model_ids: ['org/model/q4'],
      holder: 'crucibleforge',
      reason: 'smoke run',
      idle_ttl_s: 300,
      priority: 2,
      force: false,
    });
    expect([...double.state.leases.keys()]).toEqual([lease.id]);
    expect(lease.devices).toEqual([0, 1]);
    expect(lease.state).toBe('held');
    expect(lease.heartbeatMs).toBe(100_000);
    expect(lease.server).toBe(double.url);
    expect(events.map((e) => e.type)).toEqual(['lease-request', 'lease-granted']);
    expect(time.pendingTimers()).toBe(1);
    await lease.release();
  });

  it('accepts an id under lease.lease_id and refuses a grant without any id', async () => {
    const { double, acquire } = await setup();
    double.script({ method: 'POST', path: '/api/leases', status: 200, body: { lease: { lease_id: 'abc123', devices: [0] } } });
    const lease = await acquire();
    expect(lease.id).toBe('abc123');
    double.script({ method: 'POST', path: '/api/leases', status: 200, body: { ok: true } });
    const error = await failure(acquire());
    expect(error.code).toBe('LEASE_SERVER_ERROR');
    expect(error.message).toContain('no id');
  });

  it('rejects bad options before sending anything, naming the field', async () => {
    const { double, acquire } = await setup();
    for (const [extra, field] of [
      [{ devices: [] }, 'devices'],
      [{ devices: [-1] }, 'devices'],
      [{ idleTtlS: 0 }, 'idleTtlS'],
      [{ idleTtlS: 1 }, 'from 5 to 86400'],
      [{ idleTtlS: 86_401 }, 'idleTtlS'],
      [{ idleTtlS: Number.NaN }, 'idleTtlS'],
      [{ priority: 4 as never }, 'priority'],
      [{ server: 'ftp://box' }, 'http'],
    ] as const) {
      const error = await failure(acquire(extra));
      expect(error.code).toBe('LEASE_CONFIG');
      expect(error.message).toContain(field);
    }
    expect(double.requests).toHaveLength(0);
  });
});

describe('acquireLease: waiting for taken cards', () => {
  it('waits the server retry_after_s (capped at 60 s) on lease_conflict until the blocker expires', async () => {
    const { double, acquire, events, time } = await setup();
    const blocker = double.state.addLease({ devices: [0], holder: 'render-box', reason: 'batch', idle_ttl_s: 100 });
    const lease = await acquire();
    expect(time.sleeps).toEqual([60_000, 40_000]);
    const [first, second] = waits(events);
    expect(first).toMatchObject({ reason: 'lease_conflict', status: 409, retryAfterS: 100, waitMs: 60_000 });
    expect(first!.blockers.map((b) => b.holder)).toEqual(['render-box']);
    expect(second).toMatchObject({ reason: 'lease_conflict', retryAfterS: 40 });
    expect(double.state.expired).toEqual([blocker.id]);
    expect([...double.state.leases.keys()]).toEqual([lease.id]);
    await lease.release();
  });

  it('spreads each wait by ±jitter around the clamped hint and never sleeps less than minRetryMs', async () => {
    const low = await setup();
    low.double.state.addLease({ devices: [0], idle_ttl_s: 1 });
    await (await low.acquire({ random: () => 0, jitter: 0.2, minRetryMs: 2_000 })).release();
    expect(low.time.sleeps).toEqual([1_600]); // hint 1 s → clamped to 2 s → ×0.8
    await double?.close();
    const high = await setup();
    high.double.state.addLease({ devices: [0], idle_ttl_s: 30 });
    await (await high.acquire({ random: () => 0.999_999, jitter: 0.2 })).release();
    expect(high.time.sleeps[0]).toBeCloseTo(36_000, 0);
  });

  it('gives up at the deadline with a retryable error naming who holds the cards', async () => {
    const { double, acquire, time } = await setup();
    double.state.addLease({ devices: [0], holder: 'clawforge-render', reason: 'video job', idle_ttl_s: null });
    const error = await failure(acquire({ waitMs: 150_000 }));
    expect(error.code).toBe('LEASE_WAIT_TIMEOUT');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('clawforge-render');
    expect(error.message).toContain('video job');
    expect(time.sleeps).toEqual([60_000, 60_000, 30_000]);
    expect(posts(double)).toHaveLength(4);
  });

  it('on lease_vacating asks again after 15 s and is granted once the tenant leaves', async () => {
    const { double, acquire, events, time } = await setup();
    const tenant = double.state.addLease({ devices: [0], holder: 'comfyui', priority: 3, vacate_url: 'http://127.0.0.1:9/vacate' });
    const lease = await acquire({
      onProgress: (event) => {
        events.push(event);
        if (event.type === 'lease-wait') double.state.leases.delete(tenant.id); // the tenant obeys the vacate ask
      },
    });
    expect(waits(events).map((e) => e.reason)).toEqual(['lease_vacating']);
    expect(time.sleeps).toEqual([15_000]);
    expect(double.state.vacateAsks).toMatchObject([{ leaseId: tenant.id, requester: 'crucibleforge', requesterPriority: 2 }]);
    await lease.release();
  });

  it('does not ask a tenant of the same class to vacate: plain lease_conflict', async () => {
    const { double, acquire, events } = await setup();
    double.state.addLease({ devices: [0], priority: 2, vacate_url: 'http://127.0.0.1:9/vacate', idle_ttl_s: 10 });
    await (await acquire()).release();
    expect(waits(events).map((e) => e.reason)).toEqual(['lease_conflict']);
    expect(double.state.vacateAsks).toEqual([]);
  });

  it('on 503 model_busy waits 15 s, then evicts the now idle resident and grants', async () => {
    const { double, acquire, events, time } = await setup();
    const busy = double.state.setResident({ model_id: 'chat/model', devices: [0], active_requests: 2 });
    const lease = await acquire({
      modelIds: ['bench/model'],
      onProgress: (event) => {
        events.push(event);
        if (event.type === 'lease-wait') busy.active_requests = 0;
      },
    });
    expect(waits(events)).toMatchObject([{ reason: 'model_busy', status: 503, busyModels: ['chat/model'], waitMs: 15_000 }]);
    expect(time.sleeps).toEqual([15_000]);
    expect(double.state.residents.map((r) => r.model_id)).toEqual(['bench/model']);
    await lease.release();
  });

  it('on 503 priority_hold waits the hint and tries again', async () => {
    const { double, acquire, events, time } = await setup();
    double.state.priorityHold = { model_id: 'chat/model', priority: 1 };
    const lease = await acquire({
      onProgress: (event) => {
        if (event.type === 'lease-wait') double.state.priorityHold = null;
        events.push(event);
      },
    });
    expect(waits(events).map((e) => e.reason)).toEqual(['priority_hold']);
    expect(time.sleeps).toEqual([5_000]);
    await lease.release();
  });

  it('treats a 507 with a retry hint as busy, not full', async () => {
    const { double, acquire, time } = await setup();
    double.script({ method: 'POST', path: '/api/leases', status: 507, body: { error: { message: 'busy', code: 'insufficient_vram', studioforge: { retry_after_s: 20 } } } });
    await (await acquire()).release();
    expect(time.sleeps).toEqual([20_000]);
  });

  it('stops waiting when the caller aborts', async () => {
    const { double, acquire } = await setup();
    double.state.addLease({ devices: [0], idle_ttl_s: null });
    const controller = new AbortController();
    const error = await failure(acquire({ signal: controller.signal, onProgress: () => controller.abort(new Error('user stop')) }));
    expect(error.code).toBe('LEASE_ABORTED');
  });
});

describe('acquireLease: final refusals fail at once and say what to do', () => {
  it('507 without a hint: LEASE_INSUFFICIENT_VRAM after one request, no sleeping', async () => {
    const { double, acquire, time } = await setup({ models: [{ id: 'big/model', minDevices: 2 }] });
    const error = await failure(acquire({ modelIds: ['big/model'] }));
    expect(error.code).toBe('LEASE_INSUFFICIENT_VRAM');
    expect(error.message).toMatch(/lease more devices/);
    expect(time.sleeps).toEqual([]);
    expect(posts(double)).toHaveLength(1);
  });

  it('401 without the key: LEASE_AUTH pointing at --api-key-env; the key works as Bearer and as X-API-Key', async () => {
    const { double, acquire, time } = await setup({ apiKey: 'sekrit' });
    const error = await failure(acquire());
    expect(error.code).toBe('LEASE_AUTH');
    expect(error.message).toContain('--api-key-env');
    expect(error.message).not.toContain('sekrit');
    expect(time.sleeps).toEqual([]);
    await (await acquire({ auth: { apiKey: 'sekrit' } })).release();
    expect(posts(double).at(-1)!.headers.authorization).toBe('Bearer sekrit');
    await (await acquire({ auth: { apiKey: 'sekrit', apiKeyHeader: 'x-api-key' } })).release();
    expect(posts(double).at(-1)!.headers['x-api-key']).toBe('sekrit');
  });

  it('403 from a remote caller without the PIN: LEASE_ADMIN_CREDENTIAL; the PIN header gets through', async () => {
    const { double, acquire } = await setup({ remote: true, pin: '4711' });
    const error = await failure(acquire());
    expect(error.code).toBe('LEASE_ADMIN_CREDENTIAL');
    expect(error.message).toContain('PIN');
    const lease = await acquire({ auth: { pin: '4711' } });
    expect(posts(double).at(-1)!.headers['x-mcp-pin']).toBe('4711');
    await lease.release();
    expect(double.state.released).toEqual([lease.id]);
  });

  it('a pinned idle resident refuses without force (and says so); force evicts it', async () => {
    const { double, acquire } = await setup();
    double.state.setResident({ model_id: 'pinned/model', devices: [0], pinned: true });
    const error = await failure(acquire());
    expect(error.code).toBe('LEASE_REFUSED');
    expect(error.message).toContain('force');
    await (await acquire({ force: true })).release();
    expect(double.state.residents).toEqual([]);
  });

  it('400 names the field; 404 model_not_found; a stray 404 is not a lease server', async () => {
    const { double, acquire } = await setup({ models: [{ id: 'known/model' }] });
    const bad = await failure(acquire({ devices: [7] }));
    expect(bad.code).toBe('LEASE_REFUSED');
    expect(bad.message).toContain('"devices"');
    expect((await failure(acquire({ modelIds: ['nope'] }))).code).toBe('LEASE_MODEL_NOT_FOUND');
    double.script({ path: '/api/leases', status: 404, raw: '<html>Not Found</html>', headers: { 'content-type': 'text/html' } });
    expect((await failure(acquire())).code).toBe('LEASE_UNSUPPORTED_SERVER');
  });

  it('an unreachable server is a retryable LEASE_UNREACHABLE naming the URL', async () => {
    const { double: d, acquire } = await setup();
    const url = d.url;
    await d.close();
    double = undefined;
    const error = await failure(acquire({ server: url }));
    expect(error.code).toBe('LEASE_UNREACHABLE');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain(`${url}/api/leases`);
  });
});

