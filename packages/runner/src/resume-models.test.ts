import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config';
import { planRun, type PlanOptions } from './plan';
import { writeManifest } from './storage';
import { testDriver } from './test-support';

const config = (id: string, url = 'http://127.0.0.1:9/v1', reasoning = 'off') =>
  parseConfig(`providers:
  p: { kind: vllm, base_url: ${url} }
models:
  m: { provider: p, id: ${id}, reasoning: ${reasoning} }
`);

const options = (resultsDir: string, cfg: ReturnType<typeof config>): PlanOptions => ({
  config: cfg,
  env: {},
  models: ['m'],
  profile: 'p',
  resultsDir,
  casesDir: '/unused',
  driver: testDriver([{ id: 'a', prompt: 'What is 2+3?', expect: '5' }]),
  toolVersion: 't',
});

async function startedRun(dir: string): Promise<string> {
  const plan = await planRun(options(dir, config('model-a')));
  await writeManifest(dir, plan.manifest); // an unfinished run of label m = model-a
  return plan.runId;
}

describe('resume never mixes two models under one label', () => {
  it('the same command with another model behind the label starts a new run; unchanged settings resume', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-resume-models-'));
    const runId = await startedRun(dir);
    for (const changed of [config('model-b'), config('model-a', 'http://127.0.0.1:10/v1'), config('model-a', undefined, 'on')]) {
      const plan = await planRun(options(dir, changed));
      expect(plan.resumed).toBe(false);
      expect(plan.runId).not.toBe(runId);
    }
    const same = await planRun(options(dir, config('model-a', 'http://127.0.0.1:9/v1/')));
    expect(same.resumed).toBe(true);
    expect(same.runId).toBe(runId);
  });

  it('--resume ID refuses when the label now means other settings, naming the label and the change', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-resume-models-'));
    const runId = await startedRun(dir);
    await expect(planRun({ ...options(dir, config('model-b')), resume: runId })).rejects.toThrow(
      new RegExp(`run ${runId} cannot be resumed.*"m": model id model-a → model-b`),
    );
    await expect(planRun({ ...options(dir, config('model-a', 'http://127.0.0.1:10/v1', 'on')), resume: runId })).rejects.toThrow(
      /"m": base_url http:\/\/127\.0\.0\.1:9\/v1 → http:\/\/127\.0\.0\.1:10\/v1, reasoning off → on/,
    );
    const ok = await planRun({ ...options(dir, config('model-a')), resume: runId });
    expect(ok.runId).toBe(runId);
  });
});
