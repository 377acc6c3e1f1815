import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, type CreateRunOptions } from './api';
import { parseConfig } from './config';
import { RunLog, SESSION_LOCK_DIR, writeManifest } from './storage';
import { planRun } from './plan';
import { testDriver } from './test-support';
import { fakeSleep } from '@crucibleforge/testkit';

let sim: SimEndpoint;
let gate: Promise<void> | null = null;
let entered: () => void = () => {};
let release: () => void = () => {};

beforeAll(async () => {
  sim = await startSimEndpoint({
    models: [
      {
        id: 'm',
        first_token_base_ms: 1,
        decode_tps: 20_000,
        answer: async () => {
          entered();
          if (gate) await gate;
          return { content: 'Answer: 5' };
        },
      },
    ],
  });
});
afterAll(async () => {
  release();
  await sim?.close();
});

const options = (resultsDir: string): CreateRunOptions => ({
  config: parseConfig(`providers:
  p: { kind: openai, base_url: ${sim.url} }
models:
  m: { provider: p, id: m, context_length: 4096, verify_model: off }
`),
  env: {},
  models: ['m'],
  profile: 'p',
  resultsDir,
  casesDir: '/unused',
  driver: testDriver([{ id: 'a', prompt: 'What is 2+3?', expect: '5' }]),
  toolVersion: 't',
  world: { sleep: fakeSleep().sleep },
});

describe('one session per run', () => {
  it('refuses a second session (--resume) of a run while the first is appending, naming the holder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-session-'));
    const inside = new Promise<void>((resolve) => (entered = resolve));
    gate = new Promise<void>((resolve) => (release = resolve));
    const first = await createRun(options(dir));
    const firstDone = first.done;
    await inside; // the first session is running (its log is open)

    const second = await createRun({ ...options(dir), resume: first.runId });
    await expect(second.done).rejects.toThrow(new RegExp(`run ${first.runId} is in use by pid ${process.pid} on .*session of run ${first.runId}`));
    await expect(second.done).rejects.toMatchObject({ code: 'RUNNER_BUSY' });

    release();
    expect((await firstDone).complete).toBe(true);
    // The lock is gone with the session: the run can be opened again.
    expect(await readdir(join(dir, first.runId, SESSION_LOCK_DIR))).toEqual([]);
    const again = await RunLog.open(dir, first.runId);
    await again.close();
  });

  it('takes over the lock of a session whose process has died', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-session-'));
    gate = null;
    const plan = await planRun({ ...options(dir), driver: testDriver([{ id: 'a', prompt: 'What is 2+3?', expect: '5' }]) });
    await writeManifest(dir, plan.manifest);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!; // exited: its PID is dead
    const lockDir = join(dir, plan.runId, SESSION_LOCK_DIR);
    await mkdir(lockDir, { recursive: true });
    const at = new Date();
    await writeFile(
      join(lockDir, 'gpu-0.lock'),
      JSON.stringify({ lease_id: 'deadbeef0000', pid: dead, host: hostname(), holder: 'crucibleforge', reason: 'old', devices: [0], started_at: at.toISOString(), started_at_ms: at.getTime() }),
    );
    const log = await RunLog.open(dir, plan.runId);
    await expect(RunLog.open(dir, plan.runId)).rejects.toThrow(/is in use by pid/);
    await log.close();
  });
});
