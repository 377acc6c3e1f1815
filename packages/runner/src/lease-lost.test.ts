import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from './api';
import { parseConfig } from './config';
import { testDriver, type TestCase } from './test-support';
import type { HeldLease } from './world';
import { fakeSleep, steppingDate } from '@crucibleforge/testkit';

let sim: SimEndpoint;
let onRequest: () => void = () => undefined;
beforeAll(async () => {
  sim = await startSimEndpoint({
    models: [{ id: 'rigged', first_token_base_ms: 1, decode_tps: 20_000, answer: () => (onRequest(), { content: 'Answer: 5' }) }],
  });
});
afterAll(async () => sim?.close());

describe('a lost lease', () => {
  it("stops the model's work with reason lease-lost; the cases after it are not sent", async () => {
    const config = parseConfig(`providers:
  p: { kind: llamacpp, base_url: ${sim.url}, concurrency: 1 }
models:
  rigged: { provider: p, id: rigged, context_length: 4096, lease: { devices: [0] } }
`);
    const lost = new AbortController();
    let released = 0;
    const held: HeldLease = { signal: lost.signal, release: async () => void (released += 1) };
    let caseRequests = 0;
    onRequest = () => {
      caseRequests += 1;
      // the server forgets the lease while the second case is being answered
      if (caseRequests === 3) lost.abort(Object.assign(new Error('lease l-1 is gone (idle TTL ran out)'), { code: 'LEASE_LOST' }));
    };
    const cases: TestCase[] = Array.from({ length: 6 }, (_, i) => ({ id: `c${i}`, prompt: 'What is 2+3?', expect: '5' }));
    const run = await createRun({
      config,
      env: {},
      models: ['rigged'],
      profile: 'p',
      resultsDir: await mkdtemp(join(tmpdir(), 'cf-lease-lost-')),
      casesDir: '/unused',
      driver: testDriver(cases),
      toolVersion: 't',
      world: { sleep: fakeSleep().sleep, now: steppingDate(), acquireLease: async () => held },
    });
    const summary = await run.done;
    const model = summary.models[0]!;
    expect(model.stopped).toMatchObject({ reason: 'lease-lost', message: expect.stringMatching(/lease l-1 is gone/) });
    expect(model.done).toBeLessThan(6);
    expect(caseRequests).toBe(3); // nothing sent after the loss
    expect(released).toBe(1);
  });
});
