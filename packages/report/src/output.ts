import { ReportError } from './errors';
import { renderHtml } from './render-html';
import { renderMarkdown } from './render-markdown';
import type { ReportData } from './types';

export type ReportFormat = 'md' | 'json' | 'html';

export const REPORT_FORMATS: readonly ReportFormat[] = ['md', 'json', 'html'];

export interface ReportFile {
  format: ReportFormat;
  /** `report.md`, `report.json` or `report.html`: join it to the output directory. */
  fileName: string;
  content: string;
}

/** report.json: the whole `ReportData` (it carries `schema_version`), pretty-printed, with a final newline. */
export function renderJson(data: ReportData): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** `a, B,,c` → `['a', 'b', 'c']`: the lower-cased, trimmed, non-empty names of a comma list flag. */
export function commaNames(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
}

/**
 * Parses a `--format` value such as `md,json,html` (case-insensitive, `markdown` accepted for `md`).
 * Unknown names throw REPORT_UNKNOWN_FORMAT; duplicates are dropped; an empty list means all formats.
 */
export function parseReportFormats(value: string): ReportFormat[] {
  const names = commaNames(value);
  if (names.length === 0) return [...REPORT_FORMATS];
  const out: ReportFormat[] = [];
  for (const name of names) {
    const format = name === 'markdown' ? 'md' : name;
    if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
      throw new ReportError(
        'REPORT_UNKNOWN_FORMAT',
        `unknown report format ${JSON.stringify(name)} (expected one of ${REPORT_FORMATS.join(', ')})`, { details: { format: name } },
      );
    }
    if (!out.includes(format as ReportFormat)) out.push(format as ReportFormat);
  }
  return out;
}

const RENDERERS: Record<ReportFormat, (data: ReportData) => string> = {
  md: renderMarkdown,
  json: renderJson,
  html: renderHtml,
};

/**
 * Renders the requested formats (default: all three) to `{ format, fileName, content }`. No file I/O: the caller
 * writes each `content` to `join(outDir, fileName)`.
 */
export function renderReportFiles(data: ReportData, formats: readonly ReportFormat[] = REPORT_FORMATS): ReportFile[] {
  return formats.map((format) => {
    const render = RENDERERS[format];
    if (render === undefined) {
      throw new ReportError('REPORT_UNKNOWN_FORMAT', `unknown report format ${JSON.stringify(format)}`, { details: { format } });
    }
    return { format, fileName: `report.${format}`, content: render(data) };
  });
}
