/**
 * The JSON + SSE API on loopback against the sim endpoint and a real cases directory: models and discovery,
 * profiles, the cost estimate, a run from start to results, a case row, and no API key in any response.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGuiServer, type GuiServer } from './index';
import { DECOY_KEY, KEY_ENV, rawRequest, readEvents, startTestSim, tempDir, testConfig, testGuiOptions, writeCasesDir } from './test-support';

describe('GUI API on loopback', { timeout: 30_000 }, () => {
  let sim: SimEndpoint;
  let gui: GuiServer;
  const seen: string[] = [];
  const dirs = [tempDir('cf-gui-results-'), tempDir('cf-gui-cases-')];
  const [results, cases] = dirs as [ReturnType<typeof tempDir>, ReturnType<typeof tempDir>];
  const origin = () => gui.url.replace(/\/$/, '');
  const get = (path: string, headers: Record<string, string> = {}) => rawRequest(gui.url, path, { headers }, seen);
  const post = (path: string, body: unknown, headers: Record<string, string> = { origin: origin() }) =>
    rawRequest(gui.url, path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }, seen);

  beforeAll(async () => {
    sim = await startTestSim();
    writeCasesDir(cases.dir);
    gui = await startGuiServer({ ...testGuiOptions(sim.url, results.dir, cases.dir), toolVersion: '9.9.9-test' });
  });

  afterAll(async () => {
    await gui?.close();
    await sim?.close();
    for (const d of dirs) d.remove();
  });

  it('needs no token on 127.0.0.1 and serves the page with strict headers', async () => {
    expect(gui.token).toBeNull();
    expect(gui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('/assets/js/app.js');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect((await get('/assets/js/app.js')).headers['content-type']).toContain('text/javascript');
    const state = JSON.parse((await get('/api/state')).body);
    expect(state).toMatchObject({ version: '9.9.9-test', token_required: false, active: null, results_dir: results.dir });
  });

  it('refuses a foreign Host header without a token (DNS rebinding)', async () => {
    const res = await get('/api/state', { host: 'attacker.example:8777' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error).toContain('unexpected Host');
  });

  it('lists configured models with their endpoint status, never a key', async () => {
    const res = await get('/api/models?refresh=1');
    expect(res.status).toBe(200);
    const view = JSON.parse(res.body);
    expect(view.providers).toEqual([
      expect.objectContaining({ name: 'sim', status: 'up', api_key_env: KEY_ENV, key_set: true, ids: ['sim-strong', 'sim-weak'] }),
    ]);
    expect(view.configured.map((m: { label: string; availability: string }) => [m.label, m.availability])).toEqual([
      ['strong', 'listed'],
      ['weak', 'listed'],
    ]);
    expect(view.discovered).toEqual([]);
    expect(res.body).not.toContain(DECOY_KEY);
  });

  it('lists the profiles of the cases directory with per-category counts', async () => {
    const { profiles, categories } = JSON.parse((await get('/api/profiles')).body);
    expect(categories).toContain('math');
    expect(profiles).toEqual([
      { name: 'mathonly', description: 'the maths cases', cases: 2, categories: { math: 2 }, hard: 1 },
      { name: 'quick', description: 'every test case', cases: 4, categories: { math: 2, reasoning: 2 }, hard: 2 },
    ]);
  });

  it('estimates the upper-bound cost of a priced run, and names a bad field', async () => {
    const res = await post('/api/estimate', { profile: 'quick', models: ['strong', 'weak'], categories: null, seed: 1 });
    expect(res.status).toBe(200);
    const e = JSON.parse(res.body);
    expect(e).toMatchObject({ resumes: null, cases: 4, total: 8, already_done: 0, models: ['strong', 'weak'] });
    expect(e.estimate.priced).toBe(true);
    expect(e.estimate.total_usd).toBeGreaterThan(0);
    const bad = await post('/api/estimate', { profile: 'quick', models: ['strong'], categories: ['maths'] });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toContain('field categories[0]: unknown category "maths"');
    const unknownModel = await post('/api/estimate', { profile: 'quick', models: ['nope'] });
    expect(unknownModel.status).toBe(400);
    expect(JSON.parse(unknownModel.body).error).toContain('unknown model "nope"');
  });

  it('refuses a priced run the request does not accept (the page tick is not enough), naming the amount', async () => {
    const request = { profile: 'quick', models: ['strong', 'weak'], categories: null, seed: 3 };
    const bound: number = JSON.parse((await post('/api/estimate', request)).body).estimate.total_usd;
    const unconfirmed = await post('/api/runs', request);
    expect(unconfirmed.status).toBe(428);
    expect(JSON.parse(unconfirmed.body).error).toMatch(/priced \(up to \$[\d.]+\): send accept_cost_usd/);
    const tooLow = await post('/api/runs', { ...request, accept_cost_usd: bound / 2 });
    expect(tooLow.status).toBe(428);
    expect(JSON.parse(tooLow.body).error).toContain('below this run');
    const budgetOverAccepted = await post('/api/runs', { ...request, accept_cost_usd: bound / 2, budget_usd: bound });
    expect(budgetOverAccepted.status).toBe(428);
    expect((await post('/api/runs', { ...request, accept_cost_usd: 'yes' })).status).toBe(400);
    expect(JSON.parse((await get('/api/runs')).body).runs).toEqual([]); // nothing was started or written
  });

  it('runs a profile from start to results: live events, report with intervals, a failed case row', async () => {
    const request = { profile: 'quick', models: ['strong', 'weak'], categories: null, seed: 3 };
    const bound: number = JSON.parse((await post('/api/estimate', request)).body).estimate.total_usd;
    const started = await post('/api/runs', { ...request, accept_cost_usd: bound });
    expect(started.status).toBe(202);
    const runId: string = JSON.parse(started.body).run.run_id;
    const events = await readEvents(`${origin()}/api/runs/${runId}/events`, {}, seen);
    const types = events.map((e) => e.event);
    expect(types[0]).toBe('start');
    expect(types.slice(-2)).toEqual(['end', 'closed']);
    expect(types.filter((t) => t === 'case')).toHaveLength(8);
    const lastProgress = events.filter((e) => e.event === 'progress').at(-1)!.data as { done: number; passes: number; tokens_per_s: number | null };
    expect(lastProgress).toMatchObject({ done: 8, passes: 5 });
    expect(lastProgress.tokens_per_s).toBeGreaterThan(0);
    const logs = events.filter((e) => e.event === 'log').map((e) => (e.data as { text: string }).text);
    expect(logs.some((l) => /^weak math-product(#\d+)?: FAIL [\d.]+s — /.test(l))).toBe(true);

    const runs = JSON.parse((await get('/api/runs')).body);
    expect(runs.runs[0]).toMatchObject({ run_id: runId, done: 8, total: 8, passes: 5, complete: true, live: 'finished' });

    const res = JSON.parse((await get(`/api/runs/${runId}`)).body);
    expect(res.run).toMatchObject({ run_id: runId, profile: 'quick', seed: 3, models: ['strong', 'weak'], total: 8, rows: 8 });
    const [first, second] = res.report.models;
    expect(first).toMatchObject({ model: 'strong', rank: 1, overall: { passes: 4, graded: 4, rate: 1 } });
    expect(second).toMatchObject({ model: 'weak', rank: 2, overall: { passes: 1, graded: 4, rate: 0.25 } });
    expect(second.overall.ci95[0]).toBeGreaterThan(0);
    expect(second.overall.ci95[1]).toBeLessThan(1);
    expect(res.charts.categories.map((c: { category: string }) => c.category)).toEqual(['math', 'reasoning']);
    expect(res.charts.categories[0].bars[1]).toMatchObject({ model: 'weak', rate: 0.5, passes: 1, graded: 2 });
    expect(res.charts.speed.map((s: { model: string }) => s.model)).toEqual(['strong', 'weak']);
    expect(res.charts.speed[0].ttft_s).toBeGreaterThan(0);
    // A GUI run measures each model's speed first (like `run`); the chart shows that measurement.
    expect(res.charts.speed.map((s: { source: string }) => s.source)).toEqual(['speed-run', 'speed-run']);
    expect(logs.some((l) => /^strong: speed TTFT \d\.\d{3} s · decode (\d+|—) T\/s/.test(l))).toBe(true);
    const failed = res.rows.filter((r: { status: string }) => r.status === 'fail');
    expect(failed.map((r: { model: string; case_id: string }) => `${r.model}/${r.case_id}`).sort()).toEqual([
      'weak/math-product',
      'weak/reasoning-clock-hands',
      'weak/reasoning-sisters',
    ]);

    const row = JSON.parse((await get(`/api/runs/${runId}/case?model=weak&case=math-product`)).body).row;
    expect(row).toMatchObject({ model: 'weak', case_id: 'math-product', grade: { status: 'fail' } });
    expect(row.grade.reason).toMatch(/156/);
    expect(row.messages.at(-1).content).toContain('What is 12 times 13?');
    expect(row.content).toContain('Answer: 7');
    const strongRow = JSON.parse((await get(`/api/runs/${runId}/case?model=strong&case=math-product&seed=null`)).body).row;
    expect(strongRow.reasoning).toContain('step by step');
    expect((await get(`/api/runs/${runId}/case?model=weak&case=nope`)).status).toBe(404);
    expect((await get(`/api/runs/${runId}/case?model=weak`)).status).toBe(400);
    expect((await get('/api/runs/20990101-000000-zzzz')).status).toBe(404);
  });

  it('compares two runs (or two models of one run) with the reporter, and names what is wrong with a request', async () => {
    // without a speed measurement (speed: false), so the comparison has speed on one side only; accepting less
    // than the upper bound is fine with a budget no higher than what was accepted
    const started = await post('/api/runs', { profile: 'mathonly', models: ['weak'], categories: null, seed: 3, speed: false, accept_cost_usd: 1, budget_usd: 1 });
    expect(started.status).toBe(202);
    const second: string = JSON.parse(started.body).run.run_id;
    await readEvents(`${origin()}/api/runs/${second}/events`, {}, seen);
    const first: string = JSON.parse((await get('/api/runs')).body).runs.find((r: { profile: string }) => r.profile === 'quick').run_id;
    const compare = (query: string) => get(`/api/compare?${query}`);

    // strong (quick run) against weak (mathonly run): the two maths cases, weak fails math-product only
    const res = await compare(`baseline=${first}&baseline_model=strong&candidate=${second}&max_drop_pp=5&max_slowdown=10`);
    expect(res.status).toBe(200);
    const c = JSON.parse(res.body);
    expect(c.baseline).toMatchObject({ run_id: first, model: 'strong', label: `${first}:strong` });
    expect(c.candidate).toMatchObject({ run_id: second, model: 'weak' });
    expect(c.ability.overall).toMatchObject({ cases: 2, regressions: 1, improvements: 0, p_value: 1, verdict: 'no-change' });
    expect(c.ability.flipped).toEqual([expect.objectContaining({ case_id: 'math-product', direction: 'regression' })]);
    expect(c.ability.excluded.baseline_only).toEqual(['reasoning-clock-hands', 'reasoning-sisters']);
    expect(c.gate.thresholds).toMatchObject({ max_drop_pp: 5, max_slowdown: 0.1 });
    // the second run measured no speed: the candidate's speed is missing, said so, not failed
    expect(c.speed).toMatchObject({ available: false });
    expect(c.gate).toMatchObject({ failed: false, unmeasured: ['decode', 'prefill', 'ttft'] });
    // two models of one run
    const models = JSON.parse((await compare(`baseline=${first}&baseline_model=strong&candidate=${first}&candidate_model=weak&gate=ability`)).body);
    expect(models.ability.overall).toMatchObject({ cases: 4, regressions: 3, improvements: 0, p_value: 0.25 });

    const error = async (query: string, status: number, text: string) => {
      const r = await compare(query);
      expect(r.status).toBe(status);
      expect(JSON.parse(r.body).error).toContain(text);
    };
    await error(`candidate=${second}`, 400, 'query parameter baseline (a run id) is required');
    await error(`baseline=${first}&candidate=${second}`, 400, `run ${first} has 2 models (strong, weak)`);
    await error(`baseline=${first}&baseline_model=nope&candidate=${second}`, 400, `run ${first} has no model "nope" (it has strong, weak)`);
    await error(`baseline=20990101-000000-zzzz&candidate=${second}`, 404, 'no run "20990101-000000-zzzz"');
    await error(`baseline=..&candidate=${second}`, 400, 'invalid run id');
    await error(`baseline=${second}&candidate=${second}&gate=latency`, 400, 'unknown gate "latency"');
    await error(`baseline=${second}&candidate=${second}&max_slowdown=fast`, 400, 'query parameter max_slowdown must be a percentage ≥ 0');
    // the same run at other case revisions shares nothing to compare
    const copy = '20990101-000000-copy';
    await mkdir(join(results.dir, copy));
    const manifest = JSON.parse(await readFile(join(results.dir, second, 'manifest.json'), 'utf8'));
    await writeFile(join(results.dir, copy, 'manifest.json'), JSON.stringify({ ...manifest, run_id: copy }));
    const log = await readFile(join(results.dir, second, 'rows.jsonl'), 'utf8');
    await writeFile(join(results.dir, copy, 'rows.jsonl'), log.replace(/"case_revision":"[^"]*"/g, '"case_revision":"edited"'));
    await error(`baseline=${second}&candidate=${copy}`, 400, 'share no case graded on both at the same revision and seed: of their 2 common cases, 2 at a different case revision');
  });

  it('stopping a run that is not running is a clear 409; unknown routes 404; wrong methods 405', async () => {
    const stop = await post('/api/runs/20990101-000000-zzzz/stop', {});
    expect(stop.status).toBe(409);
    expect(JSON.parse(stop.body).error).toContain('not running in this GUI');
    expect((await get('/api/nope')).status).toBe(404);
    const wrong = await get('/api/estimate');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect((await rawRequest(gui.url, '/api/state', { method: 'DELETE' }, seen)).status).toBe(405);
  });

  it('names the missing key variable, and says when a run is not live here', async () => {
    const keyless = await startGuiServer({ port: 0, resultsDir: results.dir, casesDir: cases.dir, config: testConfig(sim.url), env: {} });
    try {
      const res = await rawRequest(keyless.url, '/api/estimate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: keyless.url.replace(/\/$/, '') },
        body: JSON.stringify({ profile: 'quick', models: ['strong'] }),
      });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error).toContain(`set the environment variable ${KEY_ENV}`);
      const runs = JSON.parse((await rawRequest(keyless.url, '/api/runs')).body).runs;
      expect(runs.length).toBeGreaterThan(0);
      const events = await readEvents(`${keyless.url}api/runs/${runs[0].run_id}/events`);
      expect(events.map((e) => e.event)).toEqual(['not-live']);
    } finally {
      await keyless.close();
    }
  });

  it('never sends the API key in any response it gave during these tests', () => {
    expect(seen.length).toBeGreaterThan(15);
    for (const text of seen) expect(text).not.toContain(DECOY_KEY);
  });
});
