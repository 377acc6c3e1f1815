import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadRun, listRuns } from '@crucibleforge/runner';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { FIXTURE_CASES_DIR, fixtureWorkspace, memoryIO, startFixtureSim } from '@crucibleforge/testkit';

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startFixtureSim();
});
afterAll(async () => sim?.close());

const common = (ws: { config: string; results: string }) => ['--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed'];

describe('crucibleforge run / judge / report', () => {
  it('runs a profile end to end, judges the prose rows, writes the report', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const t = memoryIO({ cwd: ws.dir });
    const code = await main(['run', '--profile', 'test', '--models', 'strong,weak', ...common(ws)], t.io);
    expect(t.stderr()).toBe('');
    expect(code).toBe(0);
    const out = t.stdout();
    expect(out).toMatch(/starting run \S+: strong, weak — 12 of 12 cases to run/);
    expect(out).toMatch(/strong coding-add-function: PASS/);
    expect(out).toMatch(/weak math-add-small: FAIL/);
    expect(out).toMatch(/strong reasoning-long-memo: SKIP .*needs 200000 tokens of context/);
    expect(out).toMatch(/strong tooluse-weather-fahrenheit: PASS/);
    expect(out).toMatch(/2 waiting for the judge/);
    const [run] = await listRuns(ws.results);
    expect(run).toMatchObject({ total: 12, done: 12, passes: 4, pending_judge: 2, complete: true });

    const j = memoryIO({ cwd: ws.dir });
    expect(await main(['judge', '--latest', '--config', ws.config, '--results', ws.results], j.io)).toBe(0);
    expect(j.stdout()).toMatch(/judge canary: 5\/5 probes right|probes right/);
    expect(j.stdout()).toMatch(/judged 2: 1 correct, 1 incorrect, 0 judge errors; 0 rows still pending/);
    const rows = (await loadRun(ws.results, run!.run_id)).rows;
    expect(rows.find((r) => r.model === 'strong' && r.case_id === 'prose-capital-france')?.grade.status).toBe('pass');

    const r = memoryIO({ cwd: ws.dir });
    expect(await main(['report', '--run', run!.run_id, '--results', ws.results, '--format', 'md,json'], r.io)).toBe(0);
    expect(r.stdout()).toMatch(/^\d+ +strong /m); // the terminal summary (report.md has the full table)
    expect(r.stdout()).toContain(`wrote ${join(ws.results, run!.run_id, 'report.md')}`);
    const json = JSON.parse(await readFile(join(ws.results, run!.run_id, 'report.json'), 'utf8'));
    expect(json.schema_version).toBeDefined();
  });

  it('asks before a priced run, and does not start without a yes', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const before = sim.requests.length;
    const t = memoryIO({ cwd: ws.dir, env: { HOSTED_KEY: 'k' }, confirm: false });
    expect(await main(['run', '--profile', 'quick', '--models', 'hosted', ...common(ws)], t.io)).toBe(1);
    expect(t.stdout()).toMatch(/estimated cost \(upper bound, full token budgets\): \$0\.0\d+\n  hosted: up to \$0\.0\d+ for 2 cases and its speed measurement\n/);
    expect(t.stderr()).toMatch(/not started \(pass --yes/);
    expect(sim.requests.length).toBe(before);
    const yes = memoryIO({ cwd: ws.dir, env: { HOSTED_KEY: 'k' } });
    expect(await main(['run', '--profile', 'quick', '--models', 'hosted', '--yes', '--budget', '1', ...common(ws)], yes.io)).toBe(0);
    expect(yes.stdout()).toMatch(/cost: \$0\.0\d+/);
  });

  it('a missing env key names the variable; a malformed models.yaml names file, line and field (exit 2)', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const t = memoryIO({ cwd: ws.dir });
    expect(await main(['run', '--profile', 'quick', '--models', 'hosted', '--yes', ...common(ws)], t.io)).toBe(2);
    expect(t.stderr()).toMatch(/set the environment variable HOSTED_KEY/);

    const bad = await fixtureWorkspace(sim.url, '  broken: { provider: local, id: x, context_length: lots }\n');
    const b = memoryIO({ cwd: bad.dir });
    expect(await main(['run', '--profile', 'quick', '--models', 'strong', ...common(bad)], b.io)).toBe(2);
    expect(b.stderr()).toContain(`${bad.config}:18:53:`);
    expect(b.stderr()).toMatch(/models\.broken\.context_length: .*expected number/i);
  });

  it('an unknown profile lists the valid ones; "all" runs, judges and reports', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const t = memoryIO({ cwd: ws.dir });
    expect(await main(['run', '--profile', 'nope', '--models', 'strong', ...common(ws)], t.io)).toBe(2);
    expect(t.stderr()).toMatch(/unknown profile "nope"; valid profiles: .*quick/);
    const all = memoryIO({ cwd: ws.dir });
    const code = await main(['all', '--profile', 'test', '--models', 'strong', '--yes', ...common(ws)], all.io);
    expect(all.stderr()).toBe('');
    expect(code).toBe(0);
    expect(all.stdout()).toMatch(/judged 1: 1 correct/);
    expect(all.stdout()).toMatch(/wrote .*report\.html/);
  });
});
