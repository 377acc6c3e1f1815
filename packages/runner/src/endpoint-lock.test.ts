import { existsSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from './api';
import { parseConfig } from './config';
import { endpointLockDir } from './defaults';
import type { RunSummary } from './events';
import { testDriver } from './test-support';
import { fakeSleep } from '@crucibleforge/testkit';

let sim: SimEndpoint;
let release: () => void = () => {};
let gate: Promise<void> | null = null;
let entered: () => void = () => {};
const firstRequest = new Promise<void>((resolve) => (entered = resolve));

beforeAll(async () => {
  sim = await startSimEndpoint({
    models: [
      {
        id: 'held',
        first_token_base_ms: 1,
        decode_tps: 20_000,
        answer: async () => {
          entered();
          if (gate) await gate;
          return { content: 'Answer: 5' };
        },
      },
      { id: 'quick', first_token_base_ms: 1, decode_tps: 20_000, answer: async () => ({ content: 'Answer: 5' }) },
    ],
  });
});
afterAll(async () => {
  release();
  await sim?.close();
});

async function startOn(kind: string, id: string, cacheDir: string) {
  const config = parseConfig(`providers:
  p: { kind: ${kind}, base_url: ${sim.url} }
models:
  m: { provider: p, id: ${id}, context_length: 4096, verify_model: off }
`);
  return createRun({
    config,
    env: {},
    models: ['m'],
    profile: 'p',
    resultsDir: await mkdtemp(join(tmpdir(), 'cf-endpoint-')),
    casesDir: '/unused',
    driver: testDriver([{ id: 'a', prompt: 'What is 2+3?', expect: '5' }]),
    toolVersion: 't',
    leaseCacheDir: cacheDir,
    world: { sleep: fakeSleep().sleep },
  });
}

async function finish(run: Awaited<ReturnType<typeof startOn>>): Promise<RunSummary> {
  for await (const _ of run.events);
  return run.done;
}

describe('implicit lock of a local endpoint without a lease: block', () => {
  it('refuses a second run on the same local endpoint, naming the holder, and frees the lock after', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'cf-endpoint-locks-'));
    gate = new Promise<void>((resolve) => (release = resolve));
    const first = await startOn('llamacpp', 'held', cacheDir);
    const firstDone = finish(first);
    await firstRequest; // run A is talking to the endpoint, so it holds the lock now
    const lockDir = endpointLockDir(cacheDir, sim.url);
    expect(await readdir(lockDir)).toContain('gpu-0.lock');

    const second = await finish(await startOn('ollama', 'quick', cacheDir));
    const stopped = second.models[0]?.stopped;
    expect(stopped?.reason).toBe('lease-failed');
    expect(stopped?.message).toContain(`local endpoint ${sim.url}`);
    expect(stopped?.message).toContain(`pid ${process.pid}`);
    expect(stopped?.message).toContain('benchmark m');
    expect(second.models[0]?.done).toBe(0);

    // A hosted provider on the same URL takes no lock, so it is not refused.
    const hosted = await finish(await startOn('openai', 'quick', cacheDir));
    expect(hosted.models[0]?.stopped).toBeNull();
    expect(hosted.models[0]?.done).toBe(1);

    release();
    const a = await firstDone;
    expect(a.models[0]?.done).toBe(1);
    expect(await readdir(lockDir)).not.toContain('gpu-0.lock');

    // Released: the next run on the endpoint goes ahead.
    const third = await finish(await startOn('llamacpp', 'quick', cacheDir));
    expect(third.models[0]?.stopped).toBeNull();
    expect(third.models[0]?.done).toBe(1);
    expect(existsSync(join(lockDir, 'gpu-0.lock'))).toBe(false);
  });

  it('keys the lock by base_url, ignoring a trailing slash', () => {
    expect(endpointLockDir('/c', 'http://127.0.0.1:1234/v1/')).toBe(endpointLockDir('/c', 'http://127.0.0.1:1234/v1'));
    expect(endpointLockDir('/c', 'http://127.0.0.1:1234/v1')).not.toBe(endpointLockDir('/c', 'http://127.0.0.1:1235/v1'));
  });
});
