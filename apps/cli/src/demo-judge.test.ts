/** The demo's simulated judge against the judge package's real protocol: the canary and a judged answer. */
import { createDemoModels } from '@crucibleforge/demo';
import { judgeAgainstReference, runCanary } from '@crucibleforge/judge';
import { startSimEndpoint } from '@crucibleforge/sim-endpoint';
import { createTimedCompleter } from '@crucibleforge/timing';
import { describe, expect, it } from 'vitest';

describe('the simulated judge speaks the judge protocol', () => {
  it('passes every canary probe and judges by the reference facts', async () => {
    const demo = await createDemoModels({ cases: [], faults: [] });
    const sim = await startSimEndpoint({ models: [demo.judge] });
    try {
      const completer = createTimedCompleter({ baseUrl: sim.url, model: demo.judge.id, providerKind: 'generic' });
      const options = { complete: completer, identity: { model: demo.judge.id, endpoint: sim.url } };
      const report = await runCanary(options);
      expect(report.failures).toEqual([]);
      expect(report.passed).toBe(true);
      const question = 'When did the bridge open, and how long is it?';
      const reference = 'It opened in 1931 and is 412 metres long.';
      const facts = ['opened in 1931', '412 metres long'];
      expect(await judgeAgainstReference({ question, reference, facts, answer: 'Opened in 1931; 412 metres.' }, options)).toMatchObject({ verdict: 'correct' });
      const wrong = await judgeAgainstReference({ question, reference, facts, answer: 'Opened in 1931; 421 metres.' }, options);
      expect(wrong).toMatchObject({ verdict: 'incorrect', note: expect.stringMatching(/412/) });
    } finally {
      await sim.close();
    }
  });
});
