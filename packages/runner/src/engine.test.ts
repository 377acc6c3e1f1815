import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimEndpoint, type SimEndpoint, type SimRequestView } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from './api';
import { parseConfig } from './config';
import type { RunEvent } from './events';
import { planRun } from './plan';
import { loadRun } from './storage';
import { testDriver, type TestCase } from './test-support';
import { fakeSleep, steppingDate } from '@crucibleforge/testkit';

const CASES: TestCase[] = [
  { id: 'add-1', prompt: 'What is 2+3?', expect: '5' },
  { id: 'add-2', prompt: 'What is 4+4?', expect: '8' },
  { id: 'add-3', prompt: 'What is 10+1?', expect: '11' },
  { id: 'add-4', prompt: 'What is 6+7?', expect: '13' },
  { id: 'long-1', prompt: 'What is 1+1? (long document)', expect: '2', min_context: 100_000 },
];

function sum(view: SimRequestView): string {
  const text = String(view.messages.at(-1)?.content ?? '');
  const m = /(\d+)\+(\d+)/.exec(text);
  return m ? String(Number(m[1]) + Number(m[2])) : 'ready';
}

const fast = { first_token_base_ms: 1, prefill_tps: 1_000_000, decode_tps: 20_000 };
let sim: SimEndpoint;
let configText: string;

beforeAll(async () => {
  sim = await startSimEndpoint({
    models: [
      { id: 'strong', ...fast, answer: (v) => ({ content: `Answer: ${sum(v)}` }) },
      { id: 'weak', ...fast, answer: { content: 'I am not sure.' } },
      {
        id: 'thinker',
        ...fast,
        reasoning_encoding: 'reasoning_content',
        answer: (v) =>
          v.reasoning_off
            ? { content: `Answer: ${sum(v)}` }
            : { reasoning: 'hmm '.repeat(400), content: `Answer: ${sum(v)}` },
      },
      { id: 'hosted', ...fast, decode_tps: 2000, answer: (v) => ({ content: `Answer: ${sum(v)}` }) },
      {
        id: 'flaky',
        ...fast,
        answer: (v) => ({ content: `Answer: ${sum(v)}` }),
        faults: [
          undefined, // preflight
          { kind: 'status', status: 429, retry_after_s: 2 },
          { kind: 'reset', after_tokens: 0 },
          { kind: 'status', status: 500 },
        ],
      },
      { id: 'dead', ...fast, answer: { content: 'x' }, faults: (v) => ((v.model_index ?? 0) === 0 ? undefined : { kind: 'status', status: 500 }) },
      { id: 'impostor', ...fast, respond_as: 'someone-else', answer: { content: 'Answer: 5' } },
      { id: 'small-ctx', ...fast, context_length: 8192, answer: (v) => ({ content: `Answer: ${sum(v)}` }) },
    ],
  });
  configText = `providers:
  local:
    kind: lmstudio
    base_url: ${sim.url}
  local2:
    kind: llamacpp
    base_url: ${sim.url}
  hosted:
    kind: openrouter
    base_url: ${sim.url}
    api_key_env: SIM_KEY
    concurrency: 8
    prices: { input: 2, output: 10 }
models:
  strong: { provider: local, id: strong, context_length: 32768 }
  weak: { provider: local, id: weak, context_length: 32768 }
  thinker: { provider: local2, id: thinker, context_length: 32768, reasoning: auto }
  hosted: { provider: hosted, id: hosted, context_length: 200000 }
  hosted-plain: { provider: hosted, id: hosted, context_length: 200000, reasoning: off }
  flaky: { provider: local2, id: flaky, context_length: 32768 }
  dead: { provider: local2, id: dead, context_length: 32768 }
  impostor: { provider: local, id: impostor }
  small-ctx: { provider: local, id: small-ctx }
`;
});
afterAll(async () => sim?.close());

async function runAll(models: string[], extra: { budgetUsd?: number; cases?: TestCase[]; resultsDir?: string } = {}) {
  const resultsDir = extra.resultsDir ?? (await mkdtemp(join(tmpdir(), 'cf-run-')));
  const clock = fakeSleep();
  const run = await createRun({
    config: parseConfig(configText, 'models.yaml'),
    env: { SIM_KEY: 'k' },
    models,
    profile: 'test',
    resultsDir,
    casesDir: '/unused',
    driver: testDriver(extra.cases ?? CASES),
    toolVersion: '0.0.0-test',
    ...(extra.budgetUsd === undefined ? {} : { budgetUsd: extra.budgetUsd }),
    world: { sleep: clock.sleep, now: steppingDate(), sandbox: async () => { throw new Error('no sandbox in this test'); } },
  });
  const events: RunEvent[] = [];
  for await (const event of run.events) events.push(event);
  const summary = await run.done;
  return { run, events, summary, resultsDir, waits: clock.waits };
}

describe('a run against the sim endpoint', () => {
  it('grades strong and weak models, skips too-long cases, and stores every row once', async () => {
    const { events, summary, resultsDir, run } = await runAll(['strong', 'weak']);
    expect(summary).toMatchObject({ total: 10, done: 10, passes: 4, failures: 4, skipped: 2, complete: true, errors: 0 });
    expect(events[0]).toMatchObject({ type: 'run-start', total: 10, already_done: 0, resumed: false });
    expect(events.at(-1)).toMatchObject({ type: 'run-end' });
    const types = new Set(events.map((e) => e.type));
    for (const t of ['model-start', 'preflight', 'case-start', 'case-end', 'progress', 'model-end']) expect(types).toContain(t);
    const lastProgress = events.filter((e) => e.type === 'progress').at(-1);
    expect(lastProgress).toMatchObject({ done: 10, total: 10, passes: 4, eta_s: 0 });
    const loaded = await loadRun(resultsDir, run.runId);
    const strongRow = loaded.rows.find((r) => r.model === 'strong' && r.case_id === 'add-2')!;
    expect(strongRow).toMatchObject({ content: 'Answer: 8', grade: { status: 'pass' }, model_id: 'strong', provider: 'local', cost_usd: null });
    expect(strongRow.timings.ttft_s).toBeGreaterThan(0);
    expect(strongRow.usage.completion_tokens).toBeGreaterThan(0);
    expect(loaded.rows.find((r) => r.case_id === 'long-1')?.grade.reason).toMatch(/needs 100000 tokens of context, model has 32768/);
    const lines = (await readFile(join(loaded.dir, 'rows.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.kind === 'row')).toHaveLength(10);
    const manifest = JSON.parse(await readFile(join(loaded.dir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ profile: 'test', tool_version: '0.0.0-test', seed: 1 });
    expect(JSON.stringify(manifest)).not.toContain('"k"');
  });

  it('recovers a reasoning overflow by retrying once with reasoning off on the case budget', async () => {
    const before = sim.requests.length;
    const { summary, resultsDir, run } = await runAll(['thinker'], { cases: [CASES[0]!] });
    expect(summary.overflows).toEqual({ happened: 1, recovered: 1 });
    const row = (await loadRun(resultsDir, run.runId)).rows[0]!;
    expect(row.grade.status).toBe('pass');
    expect(row.content).toBe('Answer: 5');
    expect(row.overflow).toEqual({ happened: true, recovered: true, budget: 256 });
    expect(row.recovery).toMatchObject({ mode: 'reasoning-off', attempts: 2, first: { finish_reason: 'length', completion_tokens: 256 } });
    const sent = sim.requests.slice(before);
    // preflight, the boosted first attempt (64 × 4), then the retry on the case's own 64 with thinking off
    expect(sent.map((b) => b['max_tokens'])).toEqual([512, 256, 64]);
    expect(sent[2]).toMatchObject({ chat_template_kwargs: { enable_thinking: false } });
    expect(row.usage.completion_tokens).toBeGreaterThan(256); // both attempts billed
  });

  it('runs a priced hosted model concurrently and bills tokens × prices', async () => {
    const before = sim.truth.length;
    const cases = Array.from({ length: 12 }, (_, i) => ({ id: `h-${i}`, prompt: `What is ${i}+1?`, expect: String(i + 1), max_tokens: 400 }));
    const { summary, resultsDir, run } = await runAll(['hosted'], { cases });
    expect(summary).toMatchObject({ done: 12, passes: 12 });
    const truth = sim.truth.slice(before + 1); // skip the preflight
    const maxOverlap = Math.max(...truth.map((t) => truth.filter((u) => u.received_ms < (t.last_token_ms ?? t.received_ms) && u.received_ms >= t.received_ms).length));
    expect(maxOverlap).toBeGreaterThan(1);
    const rows = (await loadRun(resultsDir, run.runId)).rows;
    for (const r of rows) {
      expect(r.cost_usd).toBeCloseTo(((r.usage.prompt_tokens ?? 0) * 2 + (r.usage.completion_tokens ?? 0) * 10) / 1e6, 12);
    }
    expect(summary.cost_usd).toBeCloseTo(rows.reduce((s, r) => s + (r.cost_usd ?? 0), 0), 10);
  });

  it('retries 429 (honouring Retry-After), resets and 500s before the stream, then succeeds', async () => {
    const { summary, waits, events } = await runAll(['flaky'], { cases: [CASES[0]!] });
    expect(summary).toMatchObject({ done: 1, passes: 1, errors: 0 });
    expect(waits[0]).toBeGreaterThanOrEqual(2000);
    expect(waits).toHaveLength(3);
    expect(events.filter((e) => e.type === 'notice').map((e) => (e as { message: string }).message).join('\n')).toMatch(/rate-limited/);
  });

  it('stops a model after 3 endpoint failures in a row while the other models go on', async () => {
    const { summary, events } = await runAll(['dead', 'strong']);
    const stopped = events.find((e) => e.type === 'model-stopped');
    expect(stopped).toMatchObject({ model: 'dead', reason: 'endpoint-failures' });
    const dead = summary.models.find((m) => m.model === 'dead')!;
    expect(dead.stopped?.reason).toBe('endpoint-failures');
    expect(summary.errors).toBe(3);
    expect(summary.models.find((m) => m.model === 'strong')).toMatchObject({ done: 5, passes: 4 });
    expect(summary.complete).toBe(false);
  });

  it('fails closed when another model answers: the model is stopped, nothing is recorded', async () => {
    const { summary, events, resultsDir, run } = await runAll(['impostor', 'strong']);
    expect(events.find((e) => e.type === 'preflight' && e.model === 'impostor')).toMatchObject({ ok: false, served_model: 'someone-else' });
    expect(events.find((e) => e.type === 'model-stopped')).toMatchObject({ model: 'impostor', reason: 'wrong-model' });
    const rows = (await loadRun(resultsDir, run.runId)).rows;
    expect(rows.filter((r) => r.model === 'impostor')).toEqual([]);
    expect(summary.models.find((m) => m.model === 'strong')?.done).toBe(5);
  });

  it('asks the endpoint for the context length when models.yaml does not give it', async () => {
    const { events, summary } = await runAll(['small-ctx']);
    expect(events.find((e) => e.type === 'preflight')).toMatchObject({ ok: true, context_length: 8192 });
    expect(summary).toMatchObject({ done: 5, passes: 4, skipped: 1 });
  });

  it('a missing API key names the variable before anything is sent', async () => {
    const before = sim.requests.length;
    await expect(
      planRun({
        config: parseConfig(configText),
        env: {},
        models: ['hosted'],
        profile: 'test',
        resultsDir: await mkdtemp(join(tmpdir(), 'cf-run-')),
        casesDir: '/unused',
        driver: testDriver(CASES),
        toolVersion: 't',
      }),
    ).rejects.toThrow(/set the environment variable SIM_KEY/);
    expect(sim.requests.length).toBe(before);
  });

  it('estimates an upper bound and keeps a run under --budget', async () => {
    const cases = Array.from({ length: 6 }, (_, i) => ({ id: `b-${i}`, prompt: `What is ${i}+2?`, expect: String(i + 2), max_tokens: 100 }));
    const plan = await planRun({
      config: parseConfig(configText),
      env: { SIM_KEY: 'k' },
      models: ['hosted-plain'],
      profile: 'test',
      resultsDir: await mkdtemp(join(tmpdir(), 'cf-run-')),
      casesDir: '/unused',
      driver: testDriver(cases),
      toolVersion: 't',
    });
    const perCase = plan.estimate.total_usd / 6;
    expect(plan.estimate.priced).toBe(true);
    // each case: ≤ (prompt/2 + 32) × 2 + 100 × 10 per million (reasoning off: no boost, no retry)
    expect(perCase).toBeCloseTo(((Math.ceil("What is 0+2?".length / 2) + 32) * 2 + 100 * 10) / 1e6, 10);
    const { summary, events } = await runAll(['hosted-plain'], { cases, budgetUsd: perCase * 2.5 });
    expect(summary.done).toBe(2);
    expect(events.find((e) => e.type === 'model-stopped')).toMatchObject({ reason: 'budget' });
    expect(summary.cost_usd).toBeLessThanOrEqual(perCase * 2.5);
  });
});
