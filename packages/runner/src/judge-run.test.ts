import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from './api';
import { parseConfig } from './config';
import { judgeRun, type JudgeEvent } from './judge-run';
import { loadRun } from './storage';
import { testDriver, type TestCase } from './test-support';
import { fakeSleep, judgeAnswer, steppingDate } from '@crucibleforge/testkit';

const oracle = judgeAnswer;

let sim: SimEndpoint;
let judgeBroken = false;
beforeAll(async () => {
  const fast = { first_token_base_ms: 1, decode_tps: 50_000, prefill_tps: 10_000_000 };
  sim = await startSimEndpoint({
    models: [
      { id: 'strong', ...fast, answer: (v) => ({ content: /capital of France/.test(String(v.messages.at(-1)?.content)) ? 'It is Paris.' : 'Blue, because of Rayleigh scattering.' }) },
      { id: 'weak', ...fast, answer: { content: 'Lyon, I think.' } },
      { id: 'judge', ...fast, answer: (v) => (judgeBroken ? { content: 'no idea' } : oracle(v)) },
      // a second judge that disagrees with the first about every answer
      { id: 'judge2', ...fast, answer: (v) => ({ content: JSON.stringify({ correct: !JSON.parse(oracle(v).content ?? '{}').correct, note: 'contrary' }) }) },
    ],
  });
});
afterAll(async () => sim?.close());

const config = (judge: string) =>
  parseConfig(`providers:
  p: { kind: vllm, base_url: ${sim.url}, concurrency: 2 }
models:
  strong: { provider: p, id: strong, context_length: 8192 }
  weak: { provider: p, id: weak, context_length: 8192 }
  judge: { provider: p, id: judge, context_length: 8192 }
  judge2: { provider: p, id: judge2, context_length: 8192 }
judge: { model: ${judge} }
`);

const CASES: TestCase[] = [
  { id: 'prose-capital', category: 'prose', prompt: 'What is the capital of France?', judged: { reference: 'Paris' } },
  { id: 'prose-sky', category: 'prose', prompt: 'Why is the sky blue?', judged: { reference: 'Rayleigh scattering', focus: 'name the scattering mechanism' } },
];

async function generate(judge = 'judge') {
  const dir = await mkdtemp(join(tmpdir(), 'cf-judge-'));
  const run = await createRun({
    config: config(judge),
    env: {},
    models: ['strong', 'weak'],
    profile: 'chat',
    resultsDir: dir,
    casesDir: '/unused',
    driver: testDriver(CASES),
    toolVersion: 't',
    world: { sleep: fakeSleep().sleep, now: steppingDate() },
  });
  const summary = await run.done;
  expect(summary.pending_judge).toBe(4);
  return { dir, runId: run.runId };
}

describe('judgeRun', () => {
  it('runs the canary, then judges pending rows; verdicts are appended and folded into the rows', async () => {
    const { dir, runId } = await generate();
    const events: JudgeEvent[] = [];
    const summary = await judgeRun({ config: config('judge'), env: {}, resultsDir: dir, runId, onEvent: (e) => events.push(e) });
    expect(summary).toMatchObject({ judged: 4, correct: 2, incorrect: 2, judge_errors: 0, pending: 0 });
    expect(events[0]).toMatchObject({ type: 'judge-start', rows: 4 });
    expect(events[1]).toMatchObject({ type: 'canary', passed: true });
    const rows = (await loadRun(dir, runId)).rows;
    expect(rows.map((r) => [r.model, r.case_id, r.grade.status])).toEqual([
      ['strong', 'prose-capital', 'pass'],
      ['strong', 'prose-sky', 'pass'],
      ['weak', 'prose-capital', 'fail'],
      ['weak', 'prose-sky', 'fail'],
    ]);
    expect(rows[0]?.judge?.identity).toMatchObject({ model: 'judge', endpoint: sim.url });
    // the case's grading focus reaches the judge prompt, outside the candidate fence
    const skyPrompts = sim.requests
      .filter((r) => r.model === 'judge')
      .map((r) => String((r.messages as { role: string; content: unknown }[]).find((m) => m.role === 'user')?.content ?? ''))
      .filter((u) => u.includes('Why is the sky blue?'));
    expect(skyPrompts.length).toBeGreaterThan(0);
    for (const u of skyPrompts) expect(u.split('<<<BEGIN')[0]).toContain('# Grading focus\n');
    for (const u of skyPrompts) expect(u.split('<<<BEGIN')[0]).toContain('name the scattering mechanism');
    // nothing left: a second pass sends nothing
    const before = sim.requests.length;
    expect((await judgeRun({ config: config('judge'), env: {}, resultsDir: dir, runId })).judged).toBe(0);
    expect(sim.requests.length).toBe(before);
  });

  it('judge: { structured_output: false } sends no response_format to the judge', async () => {
    const { dir, runId } = await generate();
    const before = sim.requests.length;
    const noSchema = parseConfig(`providers:
  p: { kind: vllm, base_url: ${sim.url}, concurrency: 2 }
models:
  strong: { provider: p, id: strong, context_length: 8192 }
  weak: { provider: p, id: weak, context_length: 8192 }
  judge: { provider: p, id: judge, context_length: 8192 }
judge: { model: judge, structured_output: false }
`);
    expect((await judgeRun({ config: noSchema, env: {}, resultsDir: dir, runId })).judged).toBe(4);
    const sent = sim.requests.slice(before).filter((r) => r.model === 'judge');
    expect(sent.length).toBeGreaterThan(4);
    expect(sent.some((r) => r.response_format !== undefined)).toBe(false);
    expect(sim.requests.slice(0, before).some((r) => r.model === 'judge' && r.response_format !== undefined)).toBe(true);
  });

  it('a judge error leaves the row pending; --retry-errors judges it later', async () => {
    const { dir, runId } = await generate();
    judgeBroken = true;
    try {
      const first = await judgeRun({ config: config('judge'), env: {}, resultsDir: dir, runId, canary: false });
      expect(first).toMatchObject({ judged: 4, judge_errors: 4, pending: 4 });
    } finally {
      judgeBroken = false;
    }
    expect((await judgeRun({ config: config('judge'), env: {}, resultsDir: dir, runId })).judged).toBe(0);
    const retried = await judgeRun({ config: config('judge'), env: {}, resultsDir: dir, runId, retryErrors: true });
    expect(retried).toMatchObject({ judged: 4, correct: 2, pending: 0 });
  });

  it('keeps the given secrets out of stored verdicts and events (endpoint text may echo a key)', async () => {
    const { dir, runId } = await generate();
    // The judge's address lands in every verdict and in the judge-start event: here it stands for a key.
    const secret = new URL(sim.url).host;
    const events: JudgeEvent[] = [];
    await judgeRun({ config: config('judge'), env: {}, resultsDir: dir, runId, world: { secrets: [secret] }, onEvent: (e) => events.push(e) });
    const stored = (await readFile(join(dir, runId, 'rows.jsonl'), 'utf8')).split('\n').filter((l) => l.includes('"kind":"judge"')).join('\n');
    expect(stored).toContain('[redacted]');
    expect(JSON.stringify(events)).toContain('[redacted]');
    expect(stored + JSON.stringify(events)).not.toContain(secret);
  });

  it('will not let a model judge its own answers unless forced', async () => {
    const { dir, runId } = await generate('strong');
    const events: JudgeEvent[] = [];
    const guarded = await judgeRun({ config: config('strong'), env: {}, resultsDir: dir, runId, canary: false, onEvent: (e) => events.push(e) });
    // 'strong' is no judge: its verdicts on weak's rows are judge-errors, so every row is still pending
    expect(guarded).toMatchObject({ judged: 2, judge_errors: 2, self_judge_skipped: 2, pending: 4 });
    expect(events.some((e) => e.type === 'notice' && /may not score its own answers/.test(e.message))).toBe(true);
    const forced = await judgeRun({ config: config('strong'), env: {}, resultsDir: dir, runId, canary: false, forceSelfJudge: true });
    expect(forced).toMatchObject({ judged: 2, self_judge_skipped: 0 });
  });

  it('--force re-judges rows another judge judged, and keeps the ones this judge judged', async () => {
    const { dir, runId } = await generate();
    await judgeRun({ config: config('judge'), env: {}, resultsDir: dir, runId });
    const statuses = async () => (await loadRun(dir, runId)).rows.map((r) => `${r.model}/${r.case_id}: ${r.grade.status} by ${r.judge?.identity.model}`);
    const byFirst = ['strong/prose-capital: pass by judge', 'strong/prose-sky: pass by judge', 'weak/prose-capital: fail by judge', 'weak/prose-sky: fail by judge'];
    expect(await statuses()).toEqual(byFirst);

    // a new judge alone changes nothing: every row has a verdict
    expect((await judgeRun({ config: config('judge2'), env: {}, resultsDir: dir, runId, canary: false })).judged).toBe(0);
    expect(await statuses()).toEqual(byFirst);

    // forced, only weak's rows: those two change hands (and verdicts), strong's stay with the first judge
    const events: JudgeEvent[] = [];
    const weak = await judgeRun({ config: config('judge2'), env: {}, resultsDir: dir, runId, canary: false, force: true, models: ['weak'], onEvent: (e) => events.push(e) });
    expect(weak).toMatchObject({ judged: 2, correct: 2, incorrect: 0, pending: 0, judge: { model: 'judge2' } });
    expect(events).toContainEqual({ type: 'notice', message: expect.stringMatching(/^re-judging 2 rows judged by judge at http:\/\/.* with judge2 at /) });
    expect(await statuses()).toEqual(['strong/prose-capital: pass by judge', 'strong/prose-sky: pass by judge', 'weak/prose-capital: pass by judge2', 'weak/prose-sky: pass by judge2']);

    // forced again for everyone: only strong's rows are left to re-judge; a third pass has nothing to do
    expect(await judgeRun({ config: config('judge2'), env: {}, resultsDir: dir, runId, canary: false, force: true })).toMatchObject({ judged: 2, incorrect: 2 });
    expect((await statuses()).every((s) => s.endsWith('by judge2'))).toBe(true);
    const before = sim.requests.length;
    expect((await judgeRun({ config: config('judge2'), env: {}, resultsDir: dir, runId, canary: false, force: true })).judged).toBe(0);
    expect(sim.requests.length).toBe(before);
  });

  it('stops before judging when the canary fails', async () => {
    const { dir, runId } = await generate();
    judgeBroken = true;
    try {
      await expect(judgeRun({ config: config('judge'), env: {}, resultsDir: dir, runId })).rejects.toThrow(/failed its calibration canary/);
    } finally {
      judgeBroken = false;
    }
    expect((await loadRun(dir, runId)).rows.every((r) => r.judge === undefined)).toBe(true);
  });
});
