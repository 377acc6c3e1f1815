import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportData } from '@crucibleforge/report';
import { listRuns } from '@crucibleforge/runner';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { FIXTURE_CASES_DIR, fixtureWorkspace, memoryIO, PAIRWISE_FILE_TEXT, startFixtureSim } from '@crucibleforge/testkit';

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startFixtureSim();
});
afterAll(async () => sim?.close());

/** Starts `crucibleforge gui ...args` in-process; resolves once it printed its URL (or exited). */
async function startGui(args: string[], env: Record<string, string | undefined> = {}, cwd?: string) {
  const controller = new AbortController();
  const t = memoryIO({ env: { HOME: '/nonexistent-home', ...env }, ...(cwd ? { cwd } : {}), signal: controller.signal });
  const exit = main(['gui', '--port', '0', ...args], t.io);
  let url: string | undefined;
  for (let i = 0; i < 400 && !url; i++) {
    url = /CrucibleForge GUI on (http:\/\/\S+\/)/.exec(t.stdout())?.[1];
    if (!url) {
      const done = await Promise.race([exit.then(() => true), new Promise((r) => setTimeout(r, 25, false))]);
      if (done) break;
    }
  }
  return { url, exit, stop: () => controller.abort(), stdout: t.stdout, stderr: t.stderr };
}

describe('crucibleforge gui', { timeout: 30_000 }, () => {
  it('serves on loopback without a token, shows the config in use, and stops on Ctrl-C', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const gui = await startGui(['--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed']);
    expect(gui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(gui.stdout()).toContain(`config: ${ws.config}`);
    expect(gui.stdout()).not.toContain('token');
    const state = await (await fetch(`${gui.url}api/state`)).json();
    expect(state).toMatchObject({ token_required: false, config_file: ws.config, results_dir: ws.results, cases_dir: FIXTURE_CASES_DIR });
    const models = await (await fetch(`${gui.url}api/models`)).json();
    expect(models.configured.map((m: { label: string }) => m.label)).toContain('strong');
    const profiles = await (await fetch(`${gui.url}api/profiles`)).json();
    expect(profiles.profiles.map((p: { name: string }) => p.name)).toContain('quick');
    gui.stop();
    expect(await gui.exit).toBe(0);
    expect(gui.stdout()).toContain('GUI stopped');
    await expect(fetch(`${gui.url}api/state`)).rejects.toThrow();
  });

  it('off loopback it generates and prints a token; the printed URL logs in, a bare request is 401', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const gui = await startGui(['--host', '127.0.0.2', '--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed']);
    try {
      const open = /open: (\S+)/.exec(gui.stdout())?.[1];
      expect(open).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
      expect(gui.stdout()).toContain('token: generated for this session');
      expect((await fetch(`${gui.url}api/state`)).status).toBe(401);
      const login = await fetch(open!, { redirect: 'manual' });
      expect(login.status).toBe(303);
      expect(login.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
      const token = new URL(open!).searchParams.get('token')!;
      expect((await fetch(`${gui.url}api/state`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      gui.stop();
      await gui.exit;
    }
  });

  it('takes the token from $CRUCIBLEFORGE_GUI_TOKEN, and refuses a weak one as a usage error', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const common = ['--host', '127.0.0.2', '--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed'];
    const gui = await startGui(common, { CRUCIBLEFORGE_GUI_TOKEN: 'env-token-0123456789' });
    try {
      expect(gui.stdout()).toContain('?token=env-token-0123456789');
      expect(gui.stdout()).toContain('token: required on every request');
    } finally {
      gui.stop();
      await gui.exit;
    }
    const weak = await startGui([...common, '--token', 'short']);
    expect(await weak.exit).toBe(2);
    expect(weak.stderr()).toContain('--token: the token must be at least 16 characters');
  });

  it('starts without a models.yaml (results can still be browsed) and says how to make one', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const bare = await startGui(['--results', ws.results, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed'], {}, '/');
    try {
      expect(bare.stdout()).toContain('config: none found');
      expect(bare.stdout()).toContain('crucibleforge config --init');
      const models = await (await fetch(`${bare.url}api/models`)).json();
      expect(models.configured).toEqual([]);
    } finally {
      bare.stop();
      await bare.exit;
    }
  });

  it('a malformed models.yaml is a config error naming file and line (exit 2)', async () => {
    const ws = await fixtureWorkspace(sim.url);
    await writeFile(ws.config, 'providers:\n  x: { kind: nope, base_url: http://h/v1 }\n');
    const gui = await startGui(['--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed']);
    expect(await gui.exit).toBe(2);
    expect(gui.stderr()).toMatch(new RegExp(`${ws.config.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:`));
    expect(existsSync(ws.results)).toBe(false);
  });

  it('shows the leaderboard `report` writes for the same run: ranks, rates, speed measured by the run, pairwise', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const args = ['--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed'];
    expect(await main(['run', '--profile', 'quick', '--models', 'strong,weak', '--yes', ...args], memoryIO({ cwd: ws.dir }).io)).toBe(0);
    const [run] = await listRuns(ws.results);
    await writeFile(join(ws.results, 'pairwise.json'), PAIRWISE_FILE_TEXT);
    const out = join(ws.dir, 'board');
    expect(await main(['report', '--run', run!.run_id, '--results', ws.results, '--format', 'json', '--out', out], memoryIO({ cwd: ws.dir }).io)).toBe(0);
    const cli = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportData;
    expect(cli.models.map((m) => [m.model, m.speed?.source])).toEqual([['strong', 'speed-run'], ['weak', 'speed-run']]);
    expect(cli.pairwise).not.toBeNull();

    const gui = await startGui(args);
    try {
      const page = (await (await fetch(`${gui.url}api/runs/${run!.run_id}`)).json()) as { report: ReportData };
      // one board: the same models in the same order with the same rates, intervals, speed and costs; the same
      // paired tests, pairwise ratings, categories, counts and comparability (the GUI only trims failure details)
      const { generated_at: _a, failures: cliFailures, ...cliBoard } = cli;
      const { generated_at: _b, failures: guiFailures, ...guiBoard } = page.report;
      expect(guiBoard).toEqual(cliBoard);
      expect(guiFailures.map((f) => [f.model, f.case_id])).toEqual(cliFailures.map((f) => [f.model, f.case_id]));
    } finally {
      gui.stop();
      await gui.exit;
    }
  });
});
