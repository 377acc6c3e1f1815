import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listLocalLocks } from '@crucibleforge/lease';
import { createManualTime, startLeaseServerDouble, type LeaseServerDouble } from '@crucibleforge/lease/testing';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from './api';
import { parseConfig, resolveModel } from './config';
import { createLeaseAcquirer } from './defaults';
import type { RunEvent } from './events';
import { testDriver } from './test-support';
import { fakeSleep } from '@crucibleforge/testkit';

let sim: SimEndpoint;
let rig: LeaseServerDouble;
let cacheDir: string;
const heldAtRequest: { model: string; remote: number; local: number }[] = [];

beforeAll(async () => {
  rig = await startLeaseServerDouble({ gpus: [0, 1] });
  cacheDir = await mkdtemp(join(tmpdir(), 'cf-lease-cache-'));
  const record = async (model: string) => {
    const local = (await listLocalLocks({ cacheDir })).length;
    heldAtRequest.push({ model, remote: [...rig.state.leases.values()].length, local });
  };
  sim = await startSimEndpoint({
    models: [
      { id: 'rigged', first_token_base_ms: 1, decode_tps: 20_000, answer: async (v) => (await record(v.model), { content: 'Answer: 5' }) },
      { id: 'local-gpu', first_token_base_ms: 1, decode_tps: 20_000, answer: async (v) => (await record(v.model), { content: 'Answer: 5' }) },
      { id: 'impostor', first_token_base_ms: 1, respond_as: 'other', answer: async (v) => (await record(v.model), { content: 'x' }) },
    ],
  });
});
afterAll(async () => {
  await sim?.close();
  await rig?.close();
});

describe('leases', () => {
  it('holds the lease while the model runs and gives it back after, also when the model fails', async () => {
    const config = parseConfig(`providers:
  p: { kind: llamacpp, base_url: ${sim.url} }
models:
  rigged: { provider: p, id: rigged, context_length: 4096, lease: { server: ${rig.url}, devices: [1] } }
  impostor: { provider: p, id: impostor, context_length: 4096, lease: { server: ${rig.url}, devices: [0] } }
  local-gpu: { provider: p, id: local-gpu, context_length: 4096, lease: { devices: [0] } }
`);
    const run = await createRun({
      config,
      env: {},
      models: ['rigged', 'impostor', 'local-gpu'],
      profile: 'p',
      resultsDir: await mkdtemp(join(tmpdir(), 'cf-lease-')),
      casesDir: '/unused',
      driver: testDriver([{ id: 'a', prompt: 'What is 2+3?', expect: '5' }]),
      toolVersion: 't',
      leaseCacheDir: cacheDir,
      world: { sleep: fakeSleep().sleep },
    });
    const events: RunEvent[] = [];
    for await (const e of run.events) events.push(e);
    const summary = await run.done;
    expect(summary.models.map((m) => [m.model, m.done, m.stopped?.reason ?? null])).toEqual([
      ['rigged', 1, null],
      ['impostor', 0, 'wrong-model'],
      ['local-gpu', 1, null],
    ]);
    // every request ran under its model's lease (remote for rigged/impostor, a local lock for local-gpu)
    expect(heldAtRequest.filter((h) => h.model === 'rigged').every((h) => h.remote === 1 && h.local === 0)).toBe(true);
    expect(heldAtRequest.filter((h) => h.model === 'impostor').every((h) => h.remote === 1)).toBe(true);
    expect(heldAtRequest.filter((h) => h.model === 'local-gpu').every((h) => h.remote === 0 && h.local === 1)).toBe(true);
    expect(heldAtRequest.length).toBeGreaterThanOrEqual(5);
    // all given back
    const posts = rig.requests.filter((r) => r.method === 'POST' && r.path === '/api/leases');
    const deletes = rig.requests.filter((r) => r.method === 'DELETE');
    expect(posts).toHaveLength(2);
    expect(deletes).toHaveLength(2);
    expect(rig.state.leases.size).toBe(0);
    expect(await listLocalLocks({ cacheDir })).toEqual([]);
  });
});

describe('lease credentials from models.yaml', () => {
  const yaml = (lease: string) =>
    parseConfig(`providers:
  p: { kind: llamacpp, base_url: ${sim.url} }
models:
  rigged: { provider: p, id: rigged, context_length: 4096, lease: { server: ${rig.url}, devices: [1], ${lease} } }
`);
  async function headersSent(lease: string, env: Record<string, string>): Promise<Headers[]> {
    const seen: Headers[] = [];
    const fetch = (input: string | URL | Request, init?: RequestInit) => {
      seen.push(new Headers(init?.headers));
      return globalThis.fetch(input, init);
    };
    const acquire = createLeaseAcquirer({ env, cacheDir, fetch });
    const held = await acquire(resolveModel(yaml(lease), 'rigged'), new AbortController().signal, () => undefined);
    await held.release();
    return seen;
  }

  it('pin_env and api_key_header are read from the env map and sent to the lease server', async () => {
    const seen = await headersSent('api_key_env: RIG_KEY, api_key_header: x-api-key, pin_env: RIG_PIN', { RIG_KEY: 'k-123', RIG_PIN: '4711' });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const h of seen) {
      expect(h.get('x-api-key')).toBe('k-123');
      expect(h.get('authorization')).toBeNull();
      expect(h.get('x-mcp-pin')).toBe('4711');
    }
    const bearer = await headersSent('api_key_env: RIG_KEY', { RIG_KEY: 'k-9' });
    expect(bearer.every((h) => h.get('authorization') === 'Bearer k-9' && h.get('x-mcp-pin') === null)).toBe(true);
  });

  it('a pin_env that is not set is a clear error naming the variable', async () => {
    await expect(headersSent('pin_env: RIG_PIN', {})).rejects.toThrow(/pairing PIN: set the environment variable RIG_PIN/);
  });
});

describe('a 10 s idle TTL lease through a 60 s run', () => {
  it('the heartbeat keeps it alive for every case (fake clock), then it is released', async () => {
    const time = createManualTime();
    const shortRig = await startLeaseServerDouble({ gpus: [0], now: time.now });
    const expiredAtRequest: number[] = [];
    // each case's answer takes 10 s of the injected clock: six cases = a 60 s run
    const slow = await startSimEndpoint({
      models: [
        {
          id: 'ten-second',
          first_token_base_ms: 1,
          decode_tps: 20_000,
          answer: async () => {
            await time.advance(10_000);
            shortRig.state.sweep(); // the server's periodic TTL sweep
            expiredAtRequest.push(shortRig.state.expired.length);
            return { content: 'Answer: 5' };
          },
        },
      ],
    });
    try {
      const config = parseConfig(`providers:
  p: { kind: llamacpp, base_url: ${slow.url}, concurrency: 1 }
models:
  ten-second: { provider: p, id: ten-second, context_length: 4096, lease: { server: ${shortRig.url}, devices: [0], idle_ttl_s: 10 } }
`);
      const acquire = createLeaseAcquirer({ env: {}, cacheDir, timers: time.timers, now: time.now });
      const run = await createRun({
        config,
        env: {},
        models: ['ten-second'],
        profile: 'p',
        resultsDir: await mkdtemp(join(tmpdir(), 'cf-lease-ttl-')),
        casesDir: '/unused',
        driver: testDriver(Array.from({ length: 5 }, (_, i) => ({ id: `c${i}`, prompt: 'What is 2+3?', expect: '5' }))),
        toolVersion: 't',
        world: { sleep: fakeSleep().sleep, acquireLease: acquire },
      });
      const summary = await run.done;
      expect(summary.models[0]).toMatchObject({ done: 5, passes: 5, stopped: null });
      expect(expiredAtRequest.length).toBe(6); // preflight + 5 cases, 10 s each
      expect(expiredAtRequest.every((n) => n === 0)).toBe(true);
      const touches = shortRig.requests.filter((r) => r.path.endsWith('/touch'));
      expect(touches.length).toBeGreaterThanOrEqual(17); // 60 s / (10 s / 3)
      expect(shortRig.state.expired).toEqual([]);
      expect(shortRig.state.released).toHaveLength(1);
      expect(shortRig.state.leases.size).toBe(0);
    } finally {
      await slow.close();
      await shortRig.close();
    }
  });

  it('models.yaml refuses an idle_ttl_s the heartbeat cannot keep, naming the field and the range', () => {
    const yaml = (ttl: number) => `providers:
  p: { kind: llamacpp, base_url: http://127.0.0.1:9/v1 }
models:
  m: { provider: p, id: m, lease: { server: http://127.0.0.1:9, idle_ttl_s: ${ttl} } }
`;
    expect(() => parseConfig(yaml(1))).toThrow(/idle_ttl_s[^\n]*at least 5 s/);
    expect(() => parseConfig(yaml(100_000))).toThrow(/idle_ttl_s[^\n]*at most 86400 s/);
    expect(() => parseConfig(yaml(10))).not.toThrow();
  });
});
