import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PREFLIGHT_PROMPT } from '@crucibleforge/core';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from './api';
import { parseConfig } from './config';
import { recoverRun, rowsToRecover } from './recover';
import { loadRun } from './storage';
import { testDriver, type TestCase } from './test-support';
import { fakeSleep, steppingDate } from '@crucibleforge/testkit';

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startSimEndpoint({
    models: [
      {
        // ignores every thinking switch: only an explicit "final answer now" stops it thinking
        id: 'stubborn',
        first_token_base_ms: 1,
        decode_tps: 50_000,
        reasoning_encoding: 'reasoning',
        answer: (v) => {
          const last = String(v.messages.at(-1)?.content ?? '');
          if (/cut off/.test(last)) return { content: 'Answer: 5' };
          if (last === PREFLIGHT_PROMPT) return { content: 'ready' };
          return { reasoning: 'let me think '.repeat(300), content: 'Answer: 5' };
        },
      },
    ],
  });
});
afterAll(async () => sim?.close());

describe('recover', () => {
  it('re-runs only unrecovered overflow rows with the full ladder, superseding the old rows', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-recover-'));
    const config = parseConfig(`providers:
  p: { kind: ollama, base_url: ${sim.url} }
models:
  stubborn: { provider: p, id: stubborn, context_length: 8192, reasoning: on }
`);
    const cases: TestCase[] = [{ id: 'add', prompt: 'What is 2+3?', expect: '5', max_tokens: 50 }];
    const common = { config, env: {}, resultsDir: dir, toolVersion: 't', world: { sleep: fakeSleep().sleep, now: steppingDate() } };
    const run = await createRun({ ...common, models: ['stubborn'], profile: 'p', casesDir: '/x', driver: testDriver(cases) });
    const first = await run.done;
    expect(first.overflows).toEqual({ happened: 1, recovered: 0 });
    const before = (await loadRun(dir, run.runId)).rows[0]!;
    expect(before.grade).toMatchObject({ status: 'fail' });
    expect(before.grade.reason).toMatch(/^TRUNCATED at 200 tokens \(\d+ reasoning tokens\); expected 5/);
    expect(rowsToRecover([before])).toHaveLength(1);

    const recovery = await recoverRun({ ...common, runId: run.runId, driver: testDriver(cases) });
    const summary = await recovery.done;
    expect(summary.overflows).toEqual({ happened: 1, recovered: 1 });
    const after = (await loadRun(dir, run.runId)).rows;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ content: 'Answer: 5', grade: { status: 'pass' }, recovery: { mode: 'continue', attempts: 3 } });
    expect(after[0]!.attempt_id).not.toBe(before.attempt_id);
    const last = sim.requests.at(-1)!;
    expect((last['messages'] as { role: string }[]).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    // nothing left to recover
    expect(rowsToRecover(after)).toEqual([]);
  });
});
