import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportData } from '@crucibleforge/report';
import { listRuns, readRunSpeed } from '@crucibleforge/runner';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main';
import { writeReport } from './runner-report';
import { FIXTURE_CASES_DIR, fixtureWorkspace, memoryIO, PAIRWISE_FILE_TEXT, startFixtureSim } from '@crucibleforge/testkit';

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startFixtureSim();
});
afterAll(async () => sim?.close());

describe('writeReport', () => {
  it('shows the speed the run measured, and the medians of the rows for a run without one', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const t = memoryIO({ cwd: ws.dir });
    const args = ['run', '--profile', 'quick', '--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed'];
    expect(await main([...args, '--models', 'strong,weak', '--no-speed'], t.io)).toBe(0);
    expect(t.stdout()).not.toMatch(/speed TTFT/);
    const [plain] = await listRuns(ws.results);
    const outDir = join(ws.dir, 'out');
    const now = () => new Date('2026-01-02T03:04:05.000Z');
    const written = await writeReport({ resultsDir: ws.results, runIds: [plain!.run_id], formats: ['json', 'md'], outDir, now });
    expect(written.files).toEqual([join(outDir, 'report.json'), join(outDir, 'report.md')]);
    const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as ReportData;
    expect(report.generated_at).toBe('2026-01-02T03:04:05.000Z');
    expect(report.models.map((m) => m.speed?.source)).toEqual(['bench-rows', 'bench-rows']);
    expect(written.table).toContain('strong');

    // `run` measures speed by default (fewer rounds than `speed`) and stores it in the run: the board shows it.
    const s = memoryIO({ cwd: ws.dir });
    expect(await main([...args, '--models', 'strong', '--seed', '2'], s.io)).toBe(0);
    expect(s.stdout()).toMatch(/strong: speed TTFT \d\.\d{3} s · decode (\d+|—) T\/s · prefill (\d+|—) T\/s · plausibility [A-Z]+ \(9 requests\)/);
    const measured = (await listRuns(ws.results)).find((r) => r.run_id !== plain!.run_id)!;
    const stored = await readRunSpeed(ws.results, measured.run_id);
    expect(stored?.map((x) => [x.model, x.report?.tests.map((test) => test.runs.length)])).toEqual([['strong', [2, 2, 2]]]);
    await writeReport({ resultsDir: ws.results, runIds: [measured.run_id], formats: ['json'], outDir, now });
    const board = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as ReportData;
    expect(board.models[0]?.speed).toMatchObject({ source: 'speed-run', decode_tps: stored![0]!.summary.decode_tps });
    expect(board.models[0]?.speed?.ttft_s).toBeGreaterThan(0);
  });

  it('finds the pairwise result `pairwise` wrote to the results dir when reporting one run into its folder', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const t = memoryIO({ cwd: ws.dir });
    const args = ['--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed'];
    expect(await main(['run', '--profile', 'quick', '--models', 'strong,weak', '--no-speed', ...args], t.io)).toBe(0);
    const [run] = await listRuns(ws.results);
    // `pairwise` without --out writes here; `report --latest` writes into the run's folder.
    await writeFile(join(ws.results, 'pairwise.json'), PAIRWISE_FILE_TEXT);
    const r = memoryIO({ cwd: ws.dir });
    expect(await main(['report', '--latest', '--results', ws.results, '--format', 'json'], r.io)).toBe(0);
    const report = JSON.parse(await readFile(join(ws.results, run!.run_id, 'report.json'), 'utf8')) as ReportData;
    expect(report.pairwise).not.toBeNull();
    expect(JSON.stringify(report.pairwise)).toContain('strong');

    // `pairwise --out <run folder>`: a report written elsewhere (--out) finds it in the run's folder.
    await writeFile(join(ws.results, 'pairwise.json'), '{}');
    await writeFile(join(ws.results, run!.run_id, 'pairwise.json'), PAIRWISE_FILE_TEXT);
    const out = join(ws.dir, 'elsewhere');
    await mkdir(out);
    const e = memoryIO({ cwd: ws.dir });
    expect(await main(['report', '--run', run!.run_id, '--results', ws.results, '--format', 'json', '--out', out], e.io)).toBe(0);
    expect((JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportData).pairwise).not.toBeNull();
  });
});
