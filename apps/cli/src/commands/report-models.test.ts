import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { listRuns } from '@crucibleforge/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { FIXTURE_CASES_DIR, fixtureWorkspace, memoryIO, startFixtureSim } from '@crucibleforge/testkit';

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startFixtureSim();
});
afterAll(async () => sim?.close());

describe('crucibleforge report --models', () => {
  it('treats a model with no rows as a usage error (exit 2) and names it', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const t = memoryIO({ cwd: ws.dir });
    const args = ['--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed'];
    expect(await main(['run', '--profile', 'test', '--models', 'strong', '--no-speed', ...args], t.io)).toBe(0);
    const [run] = await listRuns(ws.results);
    const r = memoryIO({ cwd: ws.dir });
    expect(await main(['report', '--run', run!.run_id, '--results', ws.results, '--models', 'nosuch', '--format', 'md'], r.io)).toBe(2);
    expect(r.stderr()).toContain('"nosuch"');
  });
});
