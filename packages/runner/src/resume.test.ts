import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, type CreateRunOptions } from './api';
import { parseConfig } from './config';
import type { RunEvent } from './events';
import { loadRun } from './storage';
import { testDriver, type TestCase } from './test-support';
import { fakeSleep, steppingDate } from '@crucibleforge/testkit';

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startSimEndpoint({
    models: [
      {
        id: 'm',
        first_token_base_ms: 1,
        decode_tps: 20_000,
        answer: (v) => {
          const text = String(v.messages.at(-1)?.content ?? '');
          const n = /(\d+)\+(\d+)/.exec(text);
          return { content: n ? `Answer: ${Number(n[1]) + Number(n[2])}` : 'ready' };
        },
      },
      {
        id: 'agent',
        first_token_base_ms: 1,
        decode_tps: 20_000,
        answer: (v) => {
          const tools = v.messages.filter((m) => m.role === 'tool');
          if (tools.length === 0 && v.tools.length > 0) return { tool_calls: [{ name: 'lookup', arguments: { city: 'Oslo' } }] };
          if (tools.length === 1) return { tool_calls: [{ name: 'convert', arguments: { c: Number(tools[0]!.content) } }] };
          return { content: tools.length ? `It is ${tools.at(-1)!.content} F` : 'ready' };
        },
      },
    ],
  });
});
afterAll(async () => sim?.close());

const config = () =>
  parseConfig(`providers:
  p: { kind: vllm, base_url: ${sim.url}, concurrency: 1 }
models:
  m: { provider: p, id: m, context_length: 8192 }
  agent: { provider: p, id: agent, context_length: 8192 }
`);

const CASES: TestCase[] = Array.from({ length: 6 }, (_, i) => ({ id: `c-${i}`, prompt: `What is ${i}+${i}?`, expect: String(2 * i), seeded: i % 2 === 0 }));

function options(resultsDir: string, driver = testDriver(CASES)): CreateRunOptions {
  return {
    config: config(),
    env: {},
    models: ['m'],
    profile: 'p',
    seed: 7,
    resultsDir,
    casesDir: '/unused',
    driver,
    toolVersion: 't',
    world: { sleep: fakeSleep().sleep, now: steppingDate() },
  };
}

describe('durable runs', () => {
  it('a stopped run is finished by running the same command again: only the missing cases, no duplicates', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-resume-'));
    const first = await createRun(options(dir));
    const seen: RunEvent[] = [];
    for await (const e of first.events) {
      seen.push(e);
      if (e.type === 'case-end' && seen.filter((x) => x.type === 'case-end').length === 2) first.stop();
    }
    const partial = await first.done;
    expect(partial.complete).toBe(false);
    expect(partial.done).toBe(2);
    expect(seen.find((e) => e.type === 'model-stopped')).toMatchObject({ reason: 'stopped' });

    const driver = testDriver(CASES);
    const second = await createRun(options(dir, driver));
    expect(second.runId).toBe(first.runId);
    expect(second.plan.resumed).toBe(true);
    const events: RunEvent[] = [];
    for await (const e of second.events) events.push(e);
    const summary = await second.done;
    expect(events[0]).toMatchObject({ type: 'run-start', resumed: true, already_done: 2, total: 6 });
    expect(summary).toMatchObject({ complete: true, done: 6, passes: 6 });
    expect(driver.materialized).toEqual(['c-2@7', 'c-3@null', 'c-4@7', 'c-5@null']);
    const lines = (await readFile(join(summary.dir, 'rows.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    const rowKeys = lines.filter((l) => l.kind === 'row').map((l) => l.row.case_id);
    expect(rowKeys.sort()).toEqual(['c-0', 'c-1', 'c-2', 'c-3', 'c-4', 'c-5']);
    expect(lines.filter((l) => l.kind === 'session' && l.event === 'start')).toHaveLength(2);

    // A finished run is not resumed: the same command starts a new one.
    const third = await createRun(options(dir, testDriver(CASES.slice(0, 1).concat(CASES.slice(1)))));
    expect(third.runId).not.toBe(first.runId);
    third.stop();
    await third.done;
  });

  it('--resume ID continues that run even with no models given', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-resume-'));
    const first = await createRun(options(dir));
    first.stop();
    await first.done;
    const resumed = await createRun({ ...options(dir), models: [], profile: undefined as unknown as string, resume: first.runId });
    expect((await resumed.done).complete).toBe(true);
    const rows = (await loadRun(dir, first.runId)).rows;
    expect(rows.map((r) => r.seed)).toEqual([7, null, 7, null, 7, null]);
  });

  it('drives a multi-step tool script and keeps the whole transcript', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-tools-'));
    const tools = ['lookup', 'convert'].map((name) => ({ type: 'function' as const, function: { name, parameters: { type: 'object' } } }));
    const driver = testDriver([
      { id: 't-1', prompt: 'Temperature in Oslo in F?', tools, script: { lookup: '10', convert: '50' }, expectCalls: ['lookup', 'convert'] },
    ]);
    const run = await createRun({ ...options(dir, driver), models: ['agent'] });
    const summary = await run.done;
    expect(summary.passes).toBe(1);
    const row = (await loadRun(dir, run.runId)).rows[0]!;
    expect(row.content).toBe('It is 50 F');
    expect(row.tool_calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['lookup', { city: 'Oslo' }],
      ['convert', { c: 10 }],
    ]);
    expect(row.transcript?.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
  });
});
