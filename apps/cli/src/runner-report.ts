/** `report` and `all`: the runs' board written as report files (the runner's writeBoard) and its summary table. */
import { renderModelStatus, renderTerminalSummary, type ReportData, type ReportFormat } from '@crucibleforge/report';
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
  /** The terminal's width: the printed summary fits it (default 80); the full table is in report.md. */
  width?: number;
}

export async function writeReport(options: WriteReportOptions): Promise<{ table: string; files: string[]; data: ReportData }> {
  const { data, files } = await writeBoard(options.resultsDir, options.runIds, {
    generatedAt: (options.now ?? (() => new Date()))().toISOString(),
    toolVersion: VERSION,
    formats: options.formats,
    outDir: options.outDir,
    ...(options.models ? { models: options.models } : {}),
  });
  // every model of the runs, with its stop and reason, what it did not run and its retries
  const table = renderTerminalSummary(data, options.width === undefined ? {} : { width: options.width });
  return { table: `${table}\nmodel status:\n${renderModelStatus(data.models)}`, files, data };
}
