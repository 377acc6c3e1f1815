import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jsonObject, type PairwiseSummary, type SpeedSummary } from '@crucibleforge/core';
import { buildReport, renderReportFiles, type BuildReportInput, type ReportData, type ReportFormat } from '@crucibleforge/report';
import { RunnerError } from './errors';
import type { PairwiseResult } from './pairwise';
import { readRunSpeed } from './speed-store';
import { listRuns, loadRun, runDir, type LoadedRun } from './storage';
import type { RunManifestFile, RunRow } from './storage-types';

/** Where `pairwise` writes its result (in the results dir by default, or an --out folder). */
export const PAIRWISE_FILE = 'pairwise.json';

/** Everything a leaderboard is built from, read from stored runs. */
interface BoardSources {
  runIds: string[];
  rows: RunRow[];
  manifests: RunManifestFile[];
  /** Each model's speed-run medians (a later run's figure winning for a model). */
  speed: SpeedSummary[];
  pairwise: PairwiseSummary | null;
  /** Every model stop of the runs (the board lists each model with its stop and what it did not run). */
  stops: LoadedRun['stopped'];
}

async function readPairwiseIn(dir: string): Promise<PairwiseSummary | null> {
  let text: string;
  try {
    text = await readFile(join(dir, PAIRWISE_FILE), 'utf8');
  } catch {
    return null;
  }
  try {
    const summary = jsonObject(jsonObject(JSON.parse(text))?.['summary']);
    return summary && Array.isArray(summary['pairs']) ? (summary as unknown as PairwiseSummary) : null;
  } catch {
    return null;
  }
}

/** Writes pairwise.json ({ schema_version, summary, games }) into `dir`; returns its path. */
export async function writePairwiseFile(dir: string, result: PairwiseResult): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, PAIRWISE_FILE);
  await writeFile(file, `${JSON.stringify({ schema_version: 1, summary: result.summary, games: result.games }, null, 2)}\n`);
  return file;
}

/**
 * Reads the board's sources from the results dir: the rows and manifests of `runIds` (null: every run, the
 * latest attempt per case winning in the board), their stored speed, and the pairwise result found first in
 * `pairwiseDirs`, the run's own folder (one run) or the results dir. Throws RUNNER_UNKNOWN_RUN when there is
 * no run; a broken speed.json throws RUNNER_STORAGE naming it.
 */
async function readBoardSources(resultsDir: string, runIds: string[] | null, options: { pairwiseDirs?: string[] } = {}): Promise<BoardSources> {
  const ids = runIds ?? (await listRuns(resultsDir)).map((r) => r.run_id);
  if (ids.length === 0) throw new RunnerError('RUNNER_UNKNOWN_RUN', `no runs in ${resultsDir} yet (crucibleforge run …)`);
  const rows: RunRow[] = [];
  const manifests: RunManifestFile[] = [];
  const stops: LoadedRun['stopped'] = [];
  const speed = new Map<string, SpeedSummary>();
  for (const id of ids) {
    const run = await loadRun(resultsDir, id);
    rows.push(...run.rows);
    manifests.push(run.manifest);
    stops.push(...run.stopped);
    for (const s of (await readRunSpeed(resultsDir, id)) ?? []) speed.set(s.model, s.summary);
  }
  const dirs = [...(options.pairwiseDirs ?? []), ...(ids.length === 1 ? [runDir(resultsDir, ids[0]!)] : []), resultsDir];
  let pairwise: PairwiseSummary | null = null;
  for (const dir of [...new Set(dirs)]) {
    pairwise = await readPairwiseIn(dir);
    if (pairwise) break;
  }
  return { runIds: ids, rows, manifests, speed: [...speed.values()], pairwise, stops };
}

/** What a board needs besides the stored runs (see the reporter's BuildReportInput). */
export type BoardOptions = Omit<BuildReportInput, 'rows' | 'manifests' | 'speed' | 'pairwise' | 'stops'> & {
  /** Folders searched first for pairwise.json (the report's own output folder). */
  pairwiseDirs?: string[];
};

/**
 * The leaderboard of stored runs: their rows (the latest attempt per case), the speed each run measured and
 * the pairwise result, assembled by the reporter. The one function the CLI's `report`/`all`/demo and the GUI's
 * run page call, so one run gives one board everywhere. `runIds` null: every run in the results dir.
 */
export async function buildBoard(resultsDir: string, runIds: string[] | null, options: BoardOptions): Promise<ReportData> {
  const { pairwiseDirs, ...rest } = options;
  const { runIds: _ids, ...sources } = await readBoardSources(resultsDir, runIds, pairwiseDirs ? { pairwiseDirs } : {});
  return buildReport({ ...sources, ...rest });
}

/** Writes the board of stored runs as report files (report.md, report.json, report.html) into `outDir`. */
export async function writeBoard(
  resultsDir: string,
  runIds: string[] | null,
  options: Omit<BoardOptions, 'pairwiseDirs'> & { formats: readonly ReportFormat[]; outDir: string },
): Promise<{ data: ReportData; files: string[] }> {
  const { formats, outDir, ...board } = options;
  // pairwise.json is looked for in the report's own folder first
  const data = await buildBoard(resultsDir, runIds, { ...board, pairwiseDirs: [outDir] });
  await mkdir(outDir, { recursive: true });
  const files: string[] = [];
  for (const file of renderReportFiles(data, [...formats])) {
    const path = join(outDir, file.fileName);
    await writeFile(path, file.content);
    files.push(path);
  }
  return { data, files };
}
