import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { fakeSleep, speedAnswer, steppingDate } from '@crucibleforge/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from './api';
import { buildBoard } from './board';
import { parseConfig } from './config';
import type { RunEvent } from './events';
import { readRunSpeed } from './speed-store';
import { testDriver } from './test-support';

const fast = { first_token_base_ms: 1, prefill_tps: 1_000_000, decode_tps: 20_000 };
let sim: SimEndpoint;
beforeAll(async () => {
  const answer = (v: Parameters<typeof speedAnswer>[0]) => speedAnswer(v) ?? { content: 'Answer: 5' };
  sim = await startSimEndpoint({ models: [{ id: 'a', ...fast, answer }, { id: 'b', ...fast, decode_tps: 5000, answer }] });
});
afterAll(async () => sim?.close());

const config = () =>
  parseConfig(`providers:
  one: { kind: generic, base_url: ${sim.url} }
  two: { kind: generic, base_url: ${sim.url}, prices: { input: 1, output: 2 } }
models:
  model-a: { provider: one, id: a }
  model-b: { provider: two, id: b }
`);

describe('speed in a run', () => {
  it('measures each model before its cases, alone, stores one report per label and the board shows it', async () => {
    const resultsDir = await mkdtemp(join(tmpdir(), 'cf-run-speed-'));
    const driver = testDriver([1, 2, 3].map((i) => ({ id: `c${i}`, prompt: `What is 2+3? (${i})`, expect: '5' })));
    const base = { config: config(), env: {}, models: ['model-a', 'model-b'], profile: 'p', resultsDir, casesDir: 'unused', driver, toolVersion: 't' };
    const world = { sleep: fakeSleep().sleep, now: steppingDate() };
    const handle = await createRun({ ...base, speed: { runs: 2, warmup: 1, prompts: ['short'], maxTokens: 64 }, world });
    expect(handle.plan.speed?.models).toEqual(['model-a', 'model-b']);
    expect(handle.plan.estimate.per_model.find((m) => m.model === 'model-b')).toMatchObject({ cases: 3, priced: true });
    const events: RunEvent[] = [];
    for await (const e of handle.events) events.push(e);
    expect((await handle.done).complete).toBe(true);

    for (const label of ['model-a', 'model-b']) {
      const mine = events.filter((e) => 'model' in e && e.model === label).map((e) => e.type);
      expect(mine.indexOf('speed')).toBeGreaterThan(mine.indexOf('preflight'));
      expect(mine.indexOf('speed')).toBeLessThan(mine.indexOf('case-start'));
    }
    const speed = events.find((e): e is Extract<RunEvent, { type: 'speed' }> => e.type === 'speed' && e.model === 'model-b')!;
    expect(speed).toMatchObject({ requests: 3, failures: 0, summary: { model: 'model-b' } });
    expect(speed.summary.ttft_s).toBeGreaterThan(0);

    // no model was asked a case while another was being measured (providers run side by side)
    const speedCalls = sim.truth.filter((t) => t.stream && /^\[[0-9a-f]{8}\] /.test(String((sim.requests[t.index]!['messages'] as { content: string }[])[0]!.content)));
    expect(speedCalls).toHaveLength(6);
    for (const model of ['a', 'b']) {
      const mine = speedCalls.filter((t) => t.model === model);
      const [from, to] = [Math.min(...mine.map((t) => t.received_ms)), Math.max(...mine.map((t) => t.last_token_ms ?? t.received_ms))];
      const others = sim.truth.filter((t) => t.model !== model && t.received_ms > from && t.received_ms < to);
      expect(others).toEqual([]);
    }

    const stored = await readRunSpeed(resultsDir, handle.runId);
    expect(stored?.map((s) => [s.model, s.report?.model, s.report?.tests.map((t) => t.runs.length)]).sort()).toEqual([
      ['model-a', 'a', [2]],
      ['model-b', 'b', [2]],
    ]);
    const board = await buildBoard(resultsDir, [handle.runId], { generatedAt: '2026-01-01T00:00:00.000Z', toolVersion: 't' });
    expect(board.models.map((m) => [m.model, m.speed?.source])).toEqual([
      ['model-a', 'speed-run'],
      ['model-b', 'speed-run'],
    ]);

    // a run stopped right after its speed measurement continues without measuring again
    const second = await createRun({ ...base, models: ['model-a'], seed: 2, speed: true, world });
    for await (const e of second.events) if (e.type === 'speed') second.stop();
    await second.done;
    expect((await readRunSpeed(resultsDir, second.runId))?.map((s) => s.model)).toEqual(['model-a']);
    const resumed = await createRun({ ...base, resume: second.runId, speed: true, world });
    expect(resumed.plan.resumed).toBe(true);
    expect(resumed.plan.speed?.models).toEqual([]);
    for await (const e of resumed.events) expect(e.type).not.toBe('speed');
    expect((await resumed.done).complete).toBe(true);
  });
});
