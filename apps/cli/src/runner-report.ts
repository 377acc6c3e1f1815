/** `report` and `all`: the runs' board written as report files (the runner's writeBoard) and its summary table. */
import { renderSummaryTable, type ReportFormat } from '@crucibleforge/report';
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
  return { table: renderSummaryTable(data), files };
}
