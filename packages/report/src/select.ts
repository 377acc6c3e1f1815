import { latestAttempts, type GradeStatus, type ResultRow } from '@crucibleforge/core';
import { ReportError } from './errors';

const STATUSES: readonly GradeStatus[] = ['pass', 'fail', 'pending', 'skipped', 'error'];

function describeRow(row: ResultRow, index: number): string {
  const model = typeof row?.model === 'string' ? row.model : '?';
  const caseId = typeof row?.case_id === 'string' ? row.case_id : '?';
  return `rows[${index}] (model ${model}, case ${caseId})`;
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** Throws a REPORT_INVALID_ROW error naming the row and the field when a row cannot be reported. */
export function validateRow(row: ResultRow, index: number): void {
  const where = (): string => describeRow(row, index);
  if (typeof row !== 'object' || row === null) {
    throw new ReportError('REPORT_INVALID_ROW', `rows[${index}] is not an object`, { details: { index } });
  }
  for (const field of ['model', 'case_id', 'case_revision', 'category', 'run_id'] as const) {
    if (!nonEmptyString(row[field])) {
      throw new ReportError('REPORT_INVALID_ROW', `${where()}: field ${field} must be a non-empty string`, { details: {
        index,
        field,
      } });
    }
  }
  if (!nonEmptyString(row.finished_at) || Number.isNaN(Date.parse(row.finished_at))) {
    throw new ReportError(
      'REPORT_INVALID_ROW',
      `${where()}: field finished_at is not an ISO timestamp: ${JSON.stringify(row.finished_at)}`, { details: { index, field: 'finished_at' } },
    );
  }
  if (typeof row.grade !== 'object' || row.grade === null || !STATUSES.includes(row.grade.status)) {
    throw new ReportError(
      'REPORT_INVALID_ROW',
      `${where()}: field grade.status must be one of ${STATUSES.join(', ')}, got ${JSON.stringify(row.grade?.status)}`, { details: { index, field: 'grade.status' } },
    );
  }
}

/**
 * The latest attempt per (model, case, seed) (core's rule: `finished_at`, then `started_at`, then the larger
 * run id), whatever the order of the input, after checking every row. Returns the chosen rows in input order
 * and how many older attempts were dropped.
 */
export function selectLatest(rows: readonly ResultRow[]): { rows: ResultRow[]; superseded: number } {
  rows.forEach((row, index) => validateRow(row, index));
  return latestAttempts(rows);
}
