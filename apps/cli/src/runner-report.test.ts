import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportData } from '@crucibleforge/report';
import { listRuns, writeRunSpeed } from '@crucibleforge/runner';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main';
import { writeReport } from './runner-report';
import { FIXTURE_CASES, fixtureWorkspace, startFixtureSim } from './runner-testing';
import { memoryIO } from './testing';

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startFixtureSim();
});
afterAll(async () => sim?.close());

describe('writeReport', () => {
  it('uses a speed run where one is given, else the medians of the rows', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const t = memoryIO({ cwd: ws.dir });
    const args = ['run', '--profile', 'quick', '--models', 'strong,weak', '--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES, '--allow-unsandboxed'];
    expect(await main(args, t.io)).toBe(0);
    const [run] = await listRuns(ws.results);
    const outDir = join(ws.dir, 'out');
    const speed = [{ model: 'strong', ttft_s: 0.25, decode_tps: 42, prefill_tps: 900, plausibility: { confidence: 'HIGH' as const, reasons: [] } }];
    const now = () => new Date('2026-01-02T03:04:05.000Z');
    const written = await writeReport({ resultsDir: ws.results, runIds: [run!.run_id], formats: ['json', 'md'], outDir, speed, now });
    expect(written.files).toEqual([join(outDir, 'report.json'), join(outDir, 'report.md')]);
    const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as ReportData;
    expect(report.generated_at).toBe('2026-01-02T03:04:05.000Z');
    const byModel = new Map(report.models.map((m) => [m.model, m]));
    expect(byModel.get('strong')?.speed).toEqual({ decode_tps: 42, ttft_s: 0.25, prefill_tps: 900, source: 'speed-run', plausibility: speed[0]!.plausibility });
    expect(byModel.get('weak')?.speed?.source).toBe('bench-rows');
    expect(written.table).toContain('strong');

    // Without a speed argument (report, all, the GUI) the run's stored speed.json is used.
    await writeRunSpeed(ws.results, run!.run_id, speed);
    const fromDisk = await writeReport({ resultsDir: ws.results, runIds: [run!.run_id], formats: ['json'], outDir, now });
    expect(fromDisk.files).toEqual([join(outDir, 'report.json')]);
    const stored = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as ReportData;
    const storedByModel = new Map(stored.models.map((m) => [m.model, m]));
    expect(storedByModel.get('strong')?.speed).toMatchObject({ decode_tps: 42, source: 'speed-run' });
    expect(storedByModel.get('weak')?.speed?.source).toBe('bench-rows');
  });

  it('finds the pairwise result `pairwise` wrote to the results dir when reporting one run into its folder', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const t = memoryIO({ cwd: ws.dir });
    const args = ['--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES, '--allow-unsandboxed'];
    expect(await main(['run', '--profile', 'quick', '--models', 'strong,weak', ...args], t.io)).toBe(0);
    const [run] = await listRuns(ws.results);
    const summary = {
      models: ['strong', 'weak'],
      pairs: [{ a: 'strong', b: 'weak', wins: 3, ties: 0, losses: 1, win_rate: 0.75, ci95: [0.3, 0.95] }],
      ratings: [{ model: 'strong', rating: 1100 }, { model: 'weak', rating: 900 }],
      judge: null,
    };
    // `pairwise` without --out writes here; `report --latest` writes into the run's folder.
    await writeFile(join(ws.results, 'pairwise.json'), JSON.stringify({ schema_version: 1, summary, games: [] }));
    const r = memoryIO({ cwd: ws.dir });
    expect(await main(['report', '--latest', '--results', ws.results, '--format', 'json'], r.io)).toBe(0);
    const report = JSON.parse(await readFile(join(ws.results, run!.run_id, 'report.json'), 'utf8')) as ReportData;
    expect(report.pairwise).not.toBeNull();
    expect(JSON.stringify(report.pairwise)).toContain('strong');

    // `pairwise --out <run folder>`: a report written elsewhere (--out) finds it in the run's folder.
    await writeFile(join(ws.results, 'pairwise.json'), '{}');
    await writeFile(join(ws.results, run!.run_id, 'pairwise.json'), JSON.stringify({ schema_version: 1, summary, games: [] }));
    const out = join(ws.dir, 'elsewhere');
    await mkdir(out);
    const e = memoryIO({ cwd: ws.dir });
    expect(await main(['report', '--run', run!.run_id, '--results', ws.results, '--format', 'json', '--out', out], e.io)).toBe(0);
    expect((JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportData).pairwise).not.toBeNull();
  });
});
