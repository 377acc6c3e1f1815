/**
 * What a GUI must not do for any client: start a priced run past its budget, hold a copy of a big run per
 * concurrent GET, serve a run over the size cap, or serve a run folder (or file) linked from outside the
 * results directory.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestGate } from './gate';
import { startGuiServer, type GuiServer } from './index';
import { RunCache } from './run-cache';
import { rawRequest, readEvents, startTestSim, tempDir, testGuiOptions, writeCasesDir } from './test-support';

describe('GUI bounds', { timeout: 30_000 }, () => {
  let sim: SimEndpoint;
  let gui: GuiServer;
  const results = tempDir('cf-gui-bounds-results-');
  const cases = tempDir('cf-gui-bounds-cases-');
  const outside = tempDir('cf-gui-bounds-outside-');
  const origin = () => gui.url.replace(/\/$/, '');
  const get = (path: string) => rawRequest(gui.url, path);
  const post = (path: string, body: unknown) =>
    rawRequest(gui.url, path, { method: 'POST', headers: { 'content-type': 'application/json', origin: origin() }, body: JSON.stringify(body) });
  let runId = '';

  beforeAll(async () => {
    sim = await startTestSim();
    writeCasesDir(cases.dir);
    gui = await startGuiServer({ ...testGuiOptions(sim.url, results.dir, cases.dir), heavyConcurrency: 2, heavyQueue: 500 });
  });
  afterAll(async () => {
    await gui?.close();
    await sim?.close();
    [results, cases, outside].forEach((d) => d.remove());
  });

  it('a priced run with a tiny budget stops at the budget (the server enforces it, not the page)', async () => {
    const started = await post('/api/runs', { profile: 'quick', models: ['strong', 'weak'], categories: null, seed: 5, accept_cost_usd: 0.000001, budget_usd: 0.000001 });
    expect(started.status).toBe(202);
    runId = JSON.parse(started.body).run.run_id;
    await readEvents(`${origin()}/api/runs/${runId}/events`);
    const res = JSON.parse((await get(`/api/runs/${runId}`)).body);
    expect(res.run.rows).toBe(0);
    expect(res.run.stopped.map((s: { reason: string }) => s.reason)).toEqual(['budget', 'budget']);
  });

  it('400 concurrent GETs of one run are answered from one read, the same body each', async () => {
    const replies = await Promise.all(Array.from({ length: 400 }, () => get(`/api/runs/${runId}`)));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const bodies = new Set(replies.map((r) => r.body));
    expect(bodies.size).toBe(1);
    expect(JSON.parse(replies[0]!.body)).toMatchObject({ run: { run_id: runId }, live: { status: 'finished' } });
    // the cache itself: one read shared by every concurrent caller, a new one only when a file changes
    const cache = new RunCache({ resultsDir: results.dir });
    const loads = await Promise.all(Array.from({ length: 400 }, () => cache.get(runId)));
    expect(new Set(loads).size).toBe(1);
    expect(await cache.get(runId)).toBe(loads[0]);
    writeFileSync(join(results.dir, runId, 'speed.json'), '[]');
    expect(await cache.get(runId)).not.toBe(loads[0]);
  });

  it('a run folder that links outside the results directory is neither listed nor served', async () => {
    const foreign = join(outside.dir, '20250101-000000-evil');
    mkdirSync(foreign, { recursive: true });
    writeFileSync(join(foreign, 'manifest.json'), '{"secret":"outside"}');
    symlinkSync(foreign, join(results.dir, '20250101-000000-evil'));
    const res = await get('/api/runs/20250101-000000-evil');
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error).toContain('outside the results directory');
    expect(res.body).not.toContain('outside"');
    expect(JSON.parse((await get('/api/runs')).body).runs.map((r: { run_id: string }) => r.run_id)).toEqual([runId]);
    expect((await get(`/api/compare?baseline=${runId}&baseline_model=strong&candidate=20250101-000000-evil`)).status).toBe(403);
  });

  it('a rows.jsonl linked to a file elsewhere is refused too', async () => {
    const dir = join(results.dir, '20250101-000000-link');
    mkdirSync(dir);
    writeFileSync(join(dir, 'manifest.json'), '{}');
    writeFileSync(join(outside.dir, 'stolen.jsonl'), '{"kind":"row"}\n');
    symlinkSync(join(outside.dir, 'stolen.jsonl'), join(dir, 'rows.jsonl'));
    const res = await get('/api/runs/20250101-000000-link');
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error).toContain('rows.jsonl is a link to a file outside');
  });
});

describe('RunCache and RequestGate', () => {
  it('a run over the size cap is refused with 413 naming the size and what to do instead', async () => {
    const results = tempDir('cf-gui-cap-');
    try {
      const dir = join(results.dir, '20250101-000000-big');
      mkdirSync(dir);
      writeFileSync(join(dir, 'manifest.json'), '{}');
      writeFileSync(join(dir, 'rows.jsonl'), 'x'.repeat(4096));
      const cache = new RunCache({ resultsDir: results.dir, maxRunBytes: 1024 });
      await expect(cache.get('20250101-000000-big')).rejects.toMatchObject({ status: 413, message: expect.stringMatching(/over the GUI's limit.*crucibleforge report 20250101-000000-big/) });
    } finally {
      results.remove();
    }
  });

  it('the gate runs at most N at once and refuses with 503 + Retry-After beyond its queue', async () => {
    const gate = new RequestGate(2, 3);
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const work = () =>
      gate.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running -= 1;
      });
    const accepted = Array.from({ length: 5 }, work);
    await expect(work()).rejects.toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
    for (let finished = 0; finished < 5; finished += 1) {
      while (release.length === 0) await new Promise((r) => setImmediate(r));
      expect(running).toBeLessThanOrEqual(2);
      release.shift()!();
    }
    await Promise.all(accepted);
    expect(most).toBe(2);
  });
});
