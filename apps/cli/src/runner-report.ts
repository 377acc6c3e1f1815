/** `report` and `all`: the runs' board written as report files (the runner's writeBoard) and its summary table. */
import { renderModelStatus, renderSummaryTable, type ReportFormat } from '@crucibleforge/report';
import { writeBoard } from '@crucibleforge/runner';
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

export async function writeReport(options: WriteReportOptions): Promise<{ table: string; files: string[] }> {
  const { data, files } = await writeBoard(options.resultsDir, options.runIds, {
    generatedAt: (options.now ?? (() => new Date()))().toISOString(),
    toolVersion: VERSION,
    formats: options.formats,
    outDir: options.outDir,
    ...(options.models ? { models: options.models } : {}),
  });
  // every model of the runs, with its stop and reason, what it did not run and its retries
  return { table: `${renderSummaryTable(data)}\nmodel status:\n${renderModelStatus(data.models)}`, files };
}
