import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from './api';
import { parseConfig } from './config';
import { loadRun } from './storage';
import { testDriver, type TestCase } from './test-support';
import { fakeSleep, steppingDate } from '@crucibleforge/testkit';

let sim: SimEndpoint;
beforeAll(async () => {
  const fast = { first_token_base_ms: 1, decode_tps: 50_000 };
  sim = await startSimEndpoint({
    models: [
      { id: 'thinker', ...fast, reasoning_encoding: 'reasoning', answer: { reasoning: 'short thought', content: 'Answer: 2' } },
      { id: 'plain', ...fast, answer: { content: 'Answer: 2' } },
    ],
  });
});
afterAll(async () => sim?.close());

describe('min_context and the budget actually sent', () => {
  it('a long-context case is skipped for a reasoning model whose context fits only the plain budget', async () => {
    const config = parseConfig(`providers:
  p: { kind: ollama, base_url: ${sim.url} }
models:
  thinker: { provider: p, id: thinker, context_length: 10000, reasoning: on, reasoning_factor: 4 }
  plain: { provider: p, id: plain, context_length: 10000, reasoning: off }
`);
    // a haystack of 8 000 tokens + a 1 000-token answer budget: fits 10 000 plainly; × 4 for reasoning it does not
    const cases: TestCase[] = [{ id: 'long', prompt: 'What is 1+1? (long document)', expect: '2', max_tokens: 1000, min_context: 9000 }];
    const dir = await mkdtemp(join(tmpdir(), 'cf-minctx-'));
    const run = await createRun({
      config,
      env: {},
      models: ['thinker', 'plain'],
      profile: 'p',
      resultsDir: dir,
      casesDir: '/unused',
      driver: testDriver(cases),
      toolVersion: 't',
      world: { sleep: fakeSleep().sleep, now: steppingDate() },
    });
    await run.done;
    const rows = (await loadRun(dir, run.runId)).rows;
    const thinker = rows.find((r) => r.model === 'thinker')!;
    expect(thinker.grade.status).toBe('skipped');
    expect(thinker.grade.reason).toMatch(/needs 12000 tokens of context \(4000-token answer budget\), model has 10000/);
    expect(rows.find((r) => r.model === 'plain')?.grade.status).toBe('pass');
    expect(sim.requests.filter((r) => r.model === 'thinker' && String(JSON.stringify(r.messages)).includes('long document'))).toEqual([]);
  });
});
