import { afterEach, describe, expect, it } from 'vitest';
import { createManualTime } from './manual-time';
import { startLeaseServerDouble, type LeaseServerDouble, type LeaseServerDoubleOptions } from './server';

let double: LeaseServerDouble | undefined;
afterEach(async () => {
  await double?.close();
  double = undefined;
});

async function start(options: LeaseServerDoubleOptions = {}) {
  const time = createManualTime();
  double = await startLeaseServerDouble({ now: time.now, ...options });
  const d = double;
  const call = async (method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) => {
    const response = await fetch(`${d.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...init.headers },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, any> };
  };
  return { time, double: d, call };
}

describe('lease server double', () => {
  it('derives LeaseView state, expires_at and retry_after_s from its clock', async () => {
    const { time, call } = await start();
    const granted = await call('POST', '/api/leases', { body: { devices: [0], idle_ttl_s: 1000, holder: 'crucibleforge-judge' } });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ state: 'active', holder_family: 'crucibleforge', kind: 'benchmark', retry_after_s: 300, expires_at: time.now() / 1000 + 1000 });
    await time.advance(500_000);
    expect((await call('GET', '/api/leases')).body).toMatchObject({ count: 1, leases: [{ state: 'idle', idle_s: 500 }] });
    await time.advance(300_000);
    expect((await call('GET', '/api/leases')).body.leases[0]).toMatchObject({ state: 'expiring', retry_after_s: 200 });
    await time.advance(200_000);
    expect((await call('GET', '/api/leases')).body).toEqual({ leases: [], count: 0 });
    expect((await call('POST', `/api/leases/${String(granted.body.id)}/touch`)).status).toBe(404);
  });

  it('refuses a conflicting lease with Retry-After, then reports a lapsed vacate window as timed_out', async () => {
    const { time, call, double } = await start({ vacateWindowS: 60 });
    double.state.addLease({ devices: [1], priority: 3, vacate_url: 'http://127.0.0.1:9/v', idle_ttl_s: null });
    const first = await call('POST', '/api/leases', { body: { devices: [1], priority: 2 } });
    expect(first).toMatchObject({ status: 409, retryAfter: '15', body: { error: { code: 'lease_vacating' } } });
    expect((await call('GET', '/api/leases')).body.leases[0].state).toBe('vacating');
    await time.advance(60_000);
    const later = await call('POST', '/api/leases', { body: { devices: [1], priority: 2 } });
    expect(later).toMatchObject({ status: 409, body: { error: { code: 'lease_conflict', studioforge: { vacate: { state: 'timed_out' } } } } });
    expect(double.state.vacateAsks).toHaveLength(1);
  });

  it('checks the key in every accepted form and leaves public paths open', async () => {
    const { call } = await start({ apiKey: 'key' });
    expect((await call('GET', '/health')).status).toBe(200);
    expect((await call('GET', '/api/leases')).body.error.code).toBe('invalid_api_key');
    expect((await call('GET', '/api/leases', { headers: { authorization: 'key' } })).status).toBe(200);
    expect((await call('GET', '/api/leases', { headers: { authorization: 'Bearer key' } })).status).toBe(200);
    expect((await call('GET', '/api/leases', { headers: { 'x-api-key': 'key' } })).status).toBe(200);
  });

  it('gates remote lease changes behind the PIN (either header, or as bearer) but not reads', async () => {
    const { call } = await start({ remote: true, pin: '1234' });
    expect((await call('GET', '/api/leases')).status).toBe(200);
    expect((await call('POST', '/api/leases', { body: { devices: [0] } })).body.error.code).toBe('remote_admin_requires_credential');
    expect((await call('POST', '/api/leases', { body: { devices: [0] }, headers: { 'x-studioforge-pin': '1234' } })).status).toBe(200);
    expect((await call('DELETE', '/api/leases/nope', { headers: { authorization: 'Bearer 1234' } })).body.error.code).toBe('lease_not_found');
  });

  it('serves /api/status with loading → ready on its clock, and /api/gpus', async () => {
    const { time, call } = await start({ models: [{ id: 'm', loadMs: 5_000 }], gpus: [0, 3] });
    await call('POST', '/api/leases', { body: { devices: [3], model_ids: ['m'] } });
    expect((await call('GET', '/api/status')).body.loaded).toMatchObject([{ model_id: 'm', state: 'loading', plan: { devices: [3] } }]);
    await time.advance(5_000);
    expect((await call('GET', '/api/status')).body.loaded[0].state).toBe('ready');
    expect((await call('GET', '/api/gpus')).body.gpus.map((g: { index: number }) => g.index)).toEqual([0, 3]);
  });
});
