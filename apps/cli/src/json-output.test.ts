/** `--json` on every command that reports data: one JSON document on stdout, the human lines on stderr. */
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from './commands/registry';
import { main } from './main';
import { FIXTURE_CASES_DIR, fixtureWorkspace, memoryIO, startFixtureSim } from '@crucibleforge/testkit';

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startFixtureSim();
});
afterAll(async () => sim?.close());

/** Servers and actions that report no data of their own. */
const NO_DATA = new Set(['gui', 'sim', 'import-openclaw']);

describe('--json', () => {
  it('is offered by every command that reports data', async () => {
    for (const [name, entry] of Object.entries(COMMANDS)) {
      if (NO_DATA.has(name)) continue;
      const { usage } = await entry.load();
      expect(usage, `${name} --help`).toMatch(/--json\b/);
      expect(usage, `${name} --help`).not.toMatch(/--json FILE/);
    }
  }, 120_000); // loads every command module: slow on a loaded 2-core machine

  it('run, judge, report, status, models and config print one JSON document on stdout', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const store = ['--config', ws.config, '--results', ws.results];
    const json = async (...argv: string[]) => {
      const t = memoryIO({ cwd: ws.dir, env: { HOSTED_KEY: 'sk-x' } });
      const code = await main([...argv, '--json'], t.io);
      return { code, data: JSON.parse(t.stdout()) as Record<string, unknown>, err: t.stderr() };
    };
    const run = await json('run', '--profile', 'test', '--models', 'strong', ...store, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed');
    expect(run.code).toBe(0);
    expect(run.data['summary']).toMatchObject({ total: 6, done: 6, complete: true });
    expect(run.err).toMatch(/starting run/);
    const judged = await json('judge', '--latest', ...store);
    expect(judged.data['summary']).toMatchObject({ judged: 1, pending: 0 });
    const report = await json('report', '--latest', '--format', 'json', '--results', ws.results, '--out', ws.dir);
    expect(report.data['report']).toMatchObject({ models: [expect.objectContaining({ model: 'strong' })] });
    expect(report.data['files']).toEqual([expect.stringMatching(/report\.json$/)]);
    const status = await json('status', '--no-preflight', ...store, '--cases', FIXTURE_CASES_DIR);
    expect(status.data).toMatchObject({ ok: true, config: ws.config });
    const models = await json('models', '--config', ws.config);
    expect(models.data['providers']).toContainEqual(expect.objectContaining({ name: 'local', status: 'up' }));
    // on a 60-column terminal the printed summary fits; the full table is report.md's
    const narrow = memoryIO({ cwd: ws.dir, tty: true, columns: 60 });
    expect(await main(['report', '--latest', '--results', ws.results, '--out', ws.dir], narrow.io)).toBe(0);
    const table = narrow.stdout().split('\n\n')[0]!.split('\n');
    expect(table[0]).toMatch(/^#\s+Model\s+All\s+Hard/);
    for (const line of table) expect(line.length).toBeLessThanOrEqual(60);
    const config = await json('config', '--config', ws.config);
    expect(config.data).toMatchObject({ path: ws.config, judge: 'judge', enabled: expect.arrayContaining(['strong', 'weak']) });
  }, 120_000);
});
