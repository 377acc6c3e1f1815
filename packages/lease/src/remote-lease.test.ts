import { afterEach, describe, expect, it } from 'vitest';
import { acquireLease } from './acquire';
import { isLeaseError } from './errors';
import { heartbeatIntervalMs } from './ttl';
import { createManualTime, startLeaseServerDouble, type LeaseServerDouble } from './testing';
import type { LeaseProgress } from './types';

let double: LeaseServerDouble | undefined;
afterEach(async () => {
  await double?.close();
  double = undefined;
});

async function held(idleTtlS: number | null = 60) {
  const time = createManualTime();
  double = await startLeaseServerDouble({ now: time.now });
  const events: LeaseProgress[] = [];
  const lease = await acquireLease({
    server: double.url,
    devices: [0, 1],
    idleTtlS,
    now: time.now,
    sleep: time.sleep,
    timers: time.timers,
    onProgress: (event) => events.push(event),
  });
  return { time, double, events, lease };
}

const touches = (d: LeaseServerDouble) => d.requests.filter((r) => r.path.endsWith('/touch'));
const deletes = (d: LeaseServerDouble) => d.requests.filter((r) => r.method === 'DELETE');

describe('heartbeat interval', () => {
  it('is a third of the TTL (never a floor above it), at most 5 min, and 5 min without a TTL', () => {
    expect(heartbeatIntervalMs(60)).toBe(20_000);
    expect(heartbeatIntervalMs(10)).toBe(3_333); // whole ms (AbortSignal.timeout takes no fractions)
    expect(heartbeatIntervalMs(5)).toBe(1_666);
    expect(heartbeatIntervalMs(300)).toBe(100_000);
    expect(heartbeatIntervalMs(7200)).toBe(300_000);
    expect(heartbeatIntervalMs(null)).toBe(300_000);
    for (const ttl of [5, 7, 10, 29, 60, 90, 899, 900, 901, 3600, 86_400]) expect(heartbeatIntervalMs(ttl)).toBeLessThanOrEqual((ttl * 1000) / 3);
  });
});

describe('a 10 s idle TTL lease', () => {
  it('is kept alive through a 60 s run by the heartbeat (fake clock), and given back at the end', async () => {
    const { time, double, lease, events } = await held(10);
    expect(lease.heartbeatMs).toBeLessThanOrEqual(10_000 / 3);
    for (let t = 0; t < 60_000; t += 500) {
      await time.advance(500);
      double.state.sweep(); // the server's periodic TTL sweep
      expect(double.state.expired).toEqual([]);
      expect(lease.state).toBe('held');
    }
    expect(touches(double).length).toBeGreaterThanOrEqual(17);
    // the server's idle clock never got near the TTL
    expect(time.now() / 1000 - (lease.view.last_activity_at ?? 0)).toBeLessThan(10 / 3 + 0.5);
    expect(events.some((e) => e.type === 'lease-lost')).toBe(false);
    await lease.release();
    expect(double.state.released).toEqual([lease.id]);
  });

  it('a touch that hangs is cut at one heartbeat interval (not the 60 s request limit) and reported as failed', async () => {
    const time = createManualTime();
    double = await startLeaseServerDouble({ now: time.now });
    // the touch never answers; only its abort signal ends it
    const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
      String(input).endsWith('/touch')
        ? new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true }))
        : globalThis.fetch(input, init);
    const events: LeaseProgress[] = [];
    const lease = await acquireLease({
      server: double.url, devices: [0], idleTtlS: 5, fetch, now: time.now, timers: time.timers, requestTimeoutMs: 60_000,
      onProgress: (event) => events.push(event),
    });
    await time.advance(lease.heartbeatMs); // runs the touch to its end (real time: one interval, ~1.7 s)
    const failed = events.filter((e) => e.type === 'heartbeat-failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ error: { code: 'LEASE_UNREACHABLE', message: expect.stringMatching(/1666 ms|timed out|timeout/i) } });
    expect(time.pendingTimers()).toBe(1); // the next beat is scheduled
    await lease.release();
  });
});

describe('a held lease', () => {
  it('touches every interval, so the server never expires it', async () => {
    const { time, double, lease, events } = await held(60);
    expect(lease.heartbeatMs).toBe(20_000);
    await time.advance(19_999);
    expect(touches(double)).toHaveLength(0);
    await time.advance(1);
    expect(touches(double)).toHaveLength(1);
    await time.advance(10 * 60_000);
    expect(touches(double)).toHaveLength(31);
    expect(double.state.expired).toEqual([]);
    expect(double.state.leases.has(lease.id)).toBe(true);
    expect(lease.state).toBe('held');
    expect(events.filter((e) => e.type === 'heartbeat')).toHaveLength(31);
    expect(lease.view.last_activity_at).toBe(time.now() / 1000);
    await lease.release();
  });

  it('expires on the server when touches fail, then the 404 on touch reports it lost', async () => {
    const { time, double, lease, events } = await held(60);
    double.script({ path: /\/touch$/, status: 502, body: { error: { message: 'proxy down', code: 'upstream_error' } } });
    double.script({ path: /\/touch$/, status: 502, body: { error: { message: 'proxy down', code: 'upstream_error' } } });
    let lostEarly = false;
    void lease.lost.then(() => (lostEarly = true));
    await time.advance(40_000); // two failed touches, the idle clock was never reset
    await Promise.resolve();
    expect(lostEarly).toBe(false);
    expect(events.filter((e) => e.type === 'heartbeat-failed').map((e) => (e as { consecutive: number }).consecutive)).toEqual([1, 2]);
    await time.advance(20_000); // the touch now meets an expired lease
    const loss = await lease.lost;
    expect(loss.leaseId).toBe(lease.id);
    expect(loss.message).toMatch(/idle TTL/);
    expect(double.state.expired).toEqual([lease.id]);
    expect(lease.state).toBe('lost');
    expect(lease.signal.aborted).toBe(true);
    expect(isLeaseError(lease.signal.reason, 'LEASE_LOST')).toBe(true);
    expect(time.pendingTimers()).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: 'lease-lost', leaseId: lease.id });
    expect(await lease.release()).toEqual({ leaseId: lease.id, outcome: 'was-lost' });
    expect(deletes(double)).toHaveLength(0);
  });

  it('release() deletes once, stops the heartbeat and aborts the lease signal', async () => {
    const { time, double, lease } = await held(60);
    const [a, b] = await Promise.all([lease.release(), lease.release()]);
    expect(a).toEqual({ leaseId: lease.id, outcome: 'released' });
    expect(b).toBe(a);
    expect(deletes(double)).toHaveLength(1);
    expect(double.state.released).toEqual([lease.id]);
    expect(lease.state).toBe('released');
    expect(isLeaseError(lease.signal.reason, 'LEASE_RELEASED')).toBe(true);
    expect(time.pendingTimers()).toBe(0);
    await time.advance(120_000);
    expect(touches(double)).toHaveLength(0);
  });

  it('await using releases at the end of the block', async () => {
    const time = createManualTime();
    double = await startLeaseServerDouble({ now: time.now });
    let id = '';
    {
      await using lease = await acquireLease({ server: double.url, devices: [0], timers: time.timers, now: time.now });
      id = lease.id;
      expect(double.state.leases.has(id)).toBe(true);
    }
    expect(double.state.released).toEqual([id]);
    expect(double.state.leases.size).toBe(0);
  });

  it('a DELETE answered 404 counts as released', async () => {
    const { double, lease } = await held(60);
    double.state.leases.delete(lease.id); // an admin removed it behind our back
    expect(await lease.release()).toEqual({ leaseId: lease.id, outcome: 'already-gone' });
    expect(lease.state).toBe('released');
    expect(deletes(double)).toHaveLength(1);
  });

  it('a failed DELETE throws LEASE_RELEASE_FAILED and keeps the lease alive for another try', async () => {
    const { time, double, lease } = await held(60);
    double.script({ method: 'DELETE', status: 500, body: { error: { message: 'db locked', code: 'internal' } } });
    const error = await lease.release().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isLeaseError(error, 'LEASE_RELEASE_FAILED')).toBe(true);
    expect((error as Error).message).toContain('db locked');
    expect(lease.state).toBe('held');
    expect(time.pendingTimers()).toBe(1);
    expect(await lease.release()).toMatchObject({ outcome: 'released' });
    expect(double.state.leases.size).toBe(0);
  });
});
