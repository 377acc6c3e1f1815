/** Builds and writes the report files for `report`, `all` and the demo: the board the GUI shows for the same runs. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildReport, renderReportFiles, renderSummaryTable, type ReportFormat } from '@crucibleforge/report';
import { readBoardSources } from '@crucibleforge/runner';
import { VERSION } from './main';

export interface WriteReportOptions {
  resultsDir: string;
  /** null = every run in the results dir (the latest attempt per case and model wins). */
  runIds: string[] | null;
  models?: string[];
  formats: ReportFormat[];
  outDir: string;
  now?: () => Date;
}

/** The board of the runs (rows, their stored speed, the pairwise result found first in the out dir, the run's folder or the results dir). */
export async function writeReport(options: WriteReportOptions): Promise<{ table: string; files: string[] }> {
  const { runIds: _ids, ...sources } = await readBoardSources(options.resultsDir, options.runIds, { pairwiseDirs: [options.outDir] });
  const data = buildReport({
    ...sources,
    generatedAt: (options.now ?? (() => new Date()))().toISOString(),
    toolVersion: VERSION,
    ...(options.models ? { models: options.models } : {}),
  });
  await mkdir(options.outDir, { recursive: true });
  const files: string[] = [];
  for (const file of renderReportFiles(data, options.formats)) {
    const path = join(options.outDir, file.fileName);
    await writeFile(path, file.content);
    files.push(path);
  }
  return { table: renderSummaryTable(data), files };
}
