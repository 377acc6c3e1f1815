import { readFile, writeFile } from 'node:fs/promises';
import { listRuns, loadRun } from '@crucibleforge/runner';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { FIXTURE_CASES_DIR, fixtureWorkspace, judgeAnswer, memoryIO, startFixtureSim } from '@crucibleforge/testkit';

let sim: SimEndpoint;
beforeAll(async () => {
  // a second judge: the same protocol under another model id, so another judge identity
  sim = await startFixtureSim([{ id: 'judge2', first_token_base_ms: 1, decode_tps: 20_000, answer: judgeAnswer }]);
});
afterAll(async () => sim?.close());

describe('crucibleforge judge --force', () => {
  it('re-judges rows a previous judge judged once the judge changed, and only those', { timeout: 30_000 }, async () => {
    const ws = await fixtureWorkspace(sim.url, '  judge2: { provider: local, id: judge2, context_length: 32768 }\n');
    const store = ['--config', ws.config, '--results', ws.results];
    const run = memoryIO({ cwd: ws.dir });
    expect(await main(['run', '--profile', 'test', '--models', 'strong,weak', ...store, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed', '--no-speed'], run.io)).toBe(0);
    expect(await main(['judge', '--latest', ...store], memoryIO({ cwd: ws.dir }).io)).toBe(0);
    const [listed] = await listRuns(ws.results);
    const judges = async () => (await loadRun(ws.results, listed!.run_id)).rows.filter((r) => r.judge).map((r) => r.judge!.identity.model);
    expect(await judges()).toEqual(['judge', 'judge']);

    await writeFile(ws.config, (await readFile(ws.config, 'utf8')).replace('judge:\n  model: judge\n', 'judge:\n  model: judge2\n'));
    const plain = memoryIO({ cwd: ws.dir });
    expect(await main(['judge', '--latest', ...store], plain.io)).toBe(0);
    expect(plain.stdout()).toContain(`nothing to judge in run ${listed!.run_id}`);
    expect(await judges()).toEqual(['judge', 'judge']);

    const forced = memoryIO({ cwd: ws.dir });
    expect(await main(['judge', '--latest', '--force', ...store], forced.io)).toBe(0);
    expect(forced.stderr()).toBe('');
    expect(forced.stdout()).toMatch(/re-judging 2 rows judged by judge at http:\S+ \(prompt \S+\) with judge2 at /);
    expect(forced.stdout()).toContain('judged 2: 1 correct, 1 incorrect, 0 judge errors; 0 rows still pending');
    expect(await judges()).toEqual(['judge2', 'judge2']);

    const again = memoryIO({ cwd: ws.dir });
    expect(await main(['judge', '--latest', '--force', ...store], again.io)).toBe(0);
    expect(again.stdout()).toContain('nothing to judge');
  });
});
