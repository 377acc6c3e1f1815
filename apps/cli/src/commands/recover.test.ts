import { listRuns, loadRun } from '@crucibleforge/runner';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { FIXTURE_CASES_DIR, fixtureWorkspace, memoryIO, startFixtureSim } from '@crucibleforge/testkit';

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startFixtureSim();
});
afterAll(async () => sim?.close());

describe('crucibleforge recover', () => {
  it('re-runs the unrecovered overflow rows of a run and they pass', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const common = ['--config', ws.config, '--results', ws.results, '--allow-unsandboxed'];
    const t = memoryIO({ cwd: ws.dir });
    expect(await main(['run', '--profile', 'quick', '--models', 'stubborn', '--cases', FIXTURE_CASES_DIR, '--no-speed', ...common], t.io)).toBe(0);
    expect(t.stdout()).toMatch(/stubborn math-add-small: FAIL .*\[overflow\] — TRUNCATED at 256 tokens/);
    expect(t.stdout()).toMatch(/reasoning overflows: 2 \(0 recovered\)/);
    const [run] = await listRuns(ws.results);

    const r = memoryIO({ cwd: ws.dir });
    expect(await main(['recover', '--run', run!.run_id, ...common], r.io)).toBe(0);
    expect(r.stdout()).toMatch(/resuming run .*: stubborn — 2 of 2 cases to run/);
    expect(r.stdout()).toMatch(/stubborn math-add-small: PASS .*\[overflow recovered\]/);
    expect(r.stdout()).toContain(`next: crucibleforge judge --run ${run!.run_id}`);
    const rows = (await loadRun(ws.results, run!.run_id)).rows;
    expect(rows.map((x) => [x.case_id, x.grade.status, x.recovery?.mode])).toEqual([
      ['math-add-large', 'pass', 'continue'],
      ['math-add-small', 'pass', 'continue'],
    ]);
    const again = memoryIO({ cwd: ws.dir });
    expect(await main(['recover', '--run', run!.run_id, ...common], again.io)).toBe(0);
    expect(again.stdout()).toMatch(/no unrecovered reasoning overflows/);
    const missing = memoryIO({ cwd: ws.dir });
    expect(await main(['recover', ...common], missing.io)).toBe(2);
  });
});
