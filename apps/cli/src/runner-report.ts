/** Builds and writes the report files for `report`, `all` and the demo. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CrucibleError, type PairwiseSummary, type ResultRow, type RunManifest, type SpeedSummary } from '@crucibleforge/core';
import { buildReport, renderModelStatus, renderReportFiles, renderTerminalSummary, type ModelStopInput, type ReportData, type ReportFormat } from '@crucibleforge/report';
import { listRuns, loadRun, readRunSpeed } from '@crucibleforge/runner';
import { VERSION } from './main';

export interface WriteReportOptions {
  resultsDir: string;
  /** null = every run in the results dir (the latest attempt per case and model wins). */
  runIds: string[] | null;
  models?: string[];
  formats: ReportFormat[];
  outDir: string;
  /**
   * Speed-run medians per model; models without one show their rows' medians. Default: what the runs
   * stored (`results/<run>/speed.json`, written by the demo), a later run's figure winning for a model.
   */
  speed?: readonly SpeedSummary[];
  now?: () => Date;
  /** The terminal's width: the printed summary fits it (default 80); the full table is in report.md. */
  width?: number;
}

async function readPairwiseIn(dir: string): Promise<PairwiseSummary | null> {
  try {
    return (JSON.parse(await readFile(join(dir, 'pairwise.json'), 'utf8')).summary as PairwiseSummary | undefined) ?? null;
  } catch {
    return null;
  }
}

/**
 * The pairwise result `pairwise` wrote: in the report's own folder, the run's folder (one run), or the
 * results dir (where `pairwise` writes without --out), the first found winning.
 */
async function readPairwise(options: WriteReportOptions, ids: string[]): Promise<PairwiseSummary | null> {
  const dirs = [options.outDir, ...(ids.length === 1 ? [join(options.resultsDir, ids[0]!)] : []), options.resultsDir];
  for (const dir of [...new Set(dirs)]) {
    const found = await readPairwiseIn(dir);
    if (found) return found;
  }
  return null;
}

export async function writeReport(options: WriteReportOptions): Promise<{ table: string; files: string[]; data: ReportData }> {
  const ids = options.runIds ?? (await listRuns(options.resultsDir)).map((r) => r.run_id);
  if (ids.length === 0) throw new CrucibleError('RUNNER_UNKNOWN_RUN', `no runs in ${options.resultsDir} yet (crucibleforge run …)`);
  const rows: ResultRow[] = [];
  const manifests: RunManifest[] = [];
  const stops: ModelStopInput[] = [];
  const stored = new Map<string, SpeedSummary>();
  for (const id of ids) {
    const run = await loadRun(options.resultsDir, id);
    rows.push(...run.rows);
    manifests.push(run.manifest);
    stops.push(...run.stopped);
    if (!options.speed) for (const s of (await readRunSpeed(options.resultsDir, id)) ?? []) stored.set(s.model, s);
  }
  const speed = options.speed ?? (stored.size > 0 ? [...stored.values()] : undefined);
  const data = buildReport({
    rows,
    manifests,
    pairwise: await readPairwise(options, ids),
    generatedAt: (options.now ?? (() => new Date()))().toISOString(),
    toolVersion: VERSION,
    stops,
    ...(options.models ? { models: options.models } : {}),
    ...(speed ? { speed } : {}),
  });
  await mkdir(options.outDir, { recursive: true });
  const files: string[] = [];
  for (const file of renderReportFiles(data, options.formats)) {
    const path = join(options.outDir, file.fileName);
    await writeFile(path, file.content);
    files.push(path);
  }
  // every model of the runs, with its stop and reason, what it did not run and its retries
  const table = renderTerminalSummary(data, options.width === undefined ? {} : { width: options.width });
  return { table: `${table}\nmodel status:\n${renderModelStatus(data.models)}`, files, data };
}
