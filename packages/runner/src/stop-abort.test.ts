import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimEndpoint, type SimEndpoint, type SimFault } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from './api';
import { parseConfig, resolveModel } from './config';
import { loadRun } from './storage';
import { testDriver } from './test-support';
import { fakeSleep } from '@crucibleforge/testkit';

let sim: SimEndpoint;
const promptOf = (v: { messages: { content?: unknown }[] }) => String(v.messages.at(-1)?.content ?? '');
beforeAll(async () => {
  sim = await startSimEndpoint({
    models: [
      {
        id: 'flaky',
        first_token_base_ms: 1,
        decode_tps: 20_000,
        answer: { content: 'Answer: 5' },
        faults: (v): SimFault | undefined =>
          promptOf(v).includes('STALL') ? { kind: 'stall', after_tokens: 0, stall_ms: 600_000 } : promptOf(v).includes('FAIL') ? { kind: 'status', status: 500 } : undefined,
      },
      {
        id: 'gappy',
        first_token_base_ms: 1,
        decode_tps: 20_000,
        answer: { content: 'The answer is five, Answer: 5' },
        faults: (v): SimFault | undefined => (promptOf(v).includes('GAP') ? { kind: 'stall', after_tokens: 2, stall_ms: 600_000 } : undefined),
      },
    ],
  });
});
afterAll(async () => sim?.close());

async function run(yaml: string, model: string, prompts: string[]) {
  const handle = await createRun({
    config: parseConfig(yaml),
    env: {},
    models: [model],
    profile: 'p',
    resultsDir: await mkdtemp(join(tmpdir(), 'cf-stop-')),
    casesDir: '/unused',
    driver: testDriver(prompts.map((prompt, i) => ({ id: `c${i}`, prompt, expect: '5' }))),
    toolVersion: 't',
    world: { sleep: fakeSleep().sleep, retry: { attempts: 1 } },
  });
  const summary = await handle.done;
  return { summary, rows: (await loadRun(summary.dir.replace(/\/[^/]+$/, ''), summary.run_id)).rows };
}

describe('stopping a model', () => {
  it('aborts its requests in flight at once and marks those rows aborted, not failed', async () => {
    const yaml = `providers:
  p: { kind: generic, base_url: ${sim.url}, concurrency: 4 }
models:
  flaky: { provider: p, id: flaky, context_length: 4096 }
`;
    const before = sim.truth.length;
    // the stalled case would hold its slot for 600 s (first-token limit 300 s): only the abort ends it
    const { summary, rows } = await run(yaml, 'flaky', ['STALL 2+3?', 'FAIL 1', 'FAIL 2', 'FAIL 3']);
    const model = summary.models[0]!;
    expect(model.stopped).toMatchObject({ reason: 'endpoint-failures' });
    expect(model.aborted).toBe(1);
    const stalled = rows.find((r) => r.case_id === 'c0')!;
    expect(stalled).toMatchObject({ error_class: 'aborted', grade: { status: 'error', reason: expect.stringMatching(/^aborted, not graded: flaky was stopped \(endpoint-failures\)/) } });
    expect(rows.filter((r) => r.error_class === 'server-error')).toHaveLength(3);
    const stallTruth = sim.truth.slice(before).find((t) => t.fault === 'stall')!;
    expect(stallTruth.aborted).toBe(true); // the connection was closed by the client
  });
});

describe('models.yaml timeouts', () => {
  it('merge model over provider, field by field; timeout_s is the old first-token spelling', () => {
    const config = parseConfig(`providers:
  p: { kind: generic, base_url: ${sim.url}, timeout_s: 50, timeouts: { gap_s: 20, total_s: 900 } }
  q: { kind: generic, base_url: ${sim.url}, timeouts: { first_token_s: 40, connect_s: 5 } }
models:
  a: { provider: p, id: flaky }
  b: { provider: p, id: flaky, timeouts: { gap_s: 2.5 } }
  c: { provider: q, id: flaky, timeouts: { total_s: 60 } }
`);
    expect(resolveModel(config, 'a').timeouts).toEqual({ firstTokenMs: 50_000, gapMs: 20_000, totalMs: 900_000 });
    expect(resolveModel(config, 'b').timeouts).toEqual({ firstTokenMs: 50_000, gapMs: 2_500, totalMs: 900_000 });
    expect(resolveModel(config, 'c').timeouts).toEqual({ connectMs: 5_000, firstTokenMs: 40_000, totalMs: 60_000 });
    expect(() =>
      parseConfig(`providers:
  p: { kind: generic, base_url: ${sim.url}, timeouts: { total_s: 10 } }
models:
  a: { provider: p, id: flaky, timeouts: { first_token_s: 30 } }
`),
    ).toThrow(/models\.a\.timeouts[^\n]*first_token_s \(30 s[^\n]*longer than total_s \(10 s\)/);
    expect(() => parseConfig(`providers:\n  p: { kind: generic, base_url: ${sim.url}, timeouts: { gap: 3 } }\nmodels: {}\n`)).toThrow(/providers\.p\.timeouts[^\n]*unknown field/);
  });

  it('a model gap limit reaches the client: a stream that goes silent is cut at gap_s, not at the 120 s default', async () => {
    const yaml = `providers:
  p: { kind: generic, base_url: ${sim.url}, concurrency: 1 }
models:
  gappy: { provider: p, id: gappy, context_length: 4096, timeouts: { gap_s: 0.3 } }
`;
    const { rows } = await run(yaml, 'gappy', ['GAP 2+3?']);
    expect(rows[0]).toMatchObject({ grade: { status: 'error' }, error_message: expect.stringMatching(/300 ?ms|0\.3 ?s/) });
  });
});
