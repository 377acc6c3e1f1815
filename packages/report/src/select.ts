import type { GradeStatus, ResultRow } from '@crucibleforge/core';
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
    throw new ReportError('REPORT_INVALID_ROW', `rows[${index}] is not an object`, { index });
  }
  for (const field of ['model', 'case_id', 'case_revision', 'category', 'run_id'] as const) {
    if (!nonEmptyString(row[field])) {
      throw new ReportError('REPORT_INVALID_ROW', `${where()}: field ${field} must be a non-empty string`, {
        index,
        field,
      });
    }
  }
  if (!nonEmptyString(row.finished_at) || Number.isNaN(Date.parse(row.finished_at))) {
    throw new ReportError(
      'REPORT_INVALID_ROW',
      `${where()}: field finished_at is not an ISO timestamp: ${JSON.stringify(row.finished_at)}`,
      { index, field: 'finished_at' },
    );
  }
  if (typeof row.grade !== 'object' || row.grade === null || !STATUSES.includes(row.grade.status)) {
    throw new ReportError(
      'REPORT_INVALID_ROW',
      `${where()}: field grade.status must be one of ${STATUSES.join(', ')}, got ${JSON.stringify(row.grade?.status)}`,
      { index, field: 'grade.status' },
    );
  }
}

/** Key of one (model, case) slot: the unit the latest-row rule works on. */
export function slotKey(row: Pick<ResultRow, 'model' | 'case_id'>): string {
  return `${row.model}\u0000${row.case_id}`;
}

/** True when `a` is a later attempt than `b`: finished_at, then started_at, then run id (all ascending). */
function isLater(a: ResultRow, b: ResultRow): boolean {
  const fa = Date.parse(a.finished_at);
  const fb = Date.parse(b.finished_at);
  if (fa !== fb) return fa > fb;
  const sa = Date.parse(a.started_at);
  const sb = Date.parse(b.started_at);
  if (Number.isFinite(sa) && Number.isFinite(sb) && sa !== sb) return sa > sb;
  return a.run_id > b.run_id;
}

/**
 * The latest row per (model, case) by `finished_at` (ties: `started_at`, then the larger run id), whatever the
 * order of the input. Returns the chosen rows in input order and how many older attempts were dropped.
 */
export function selectLatest(rows: readonly ResultRow[]): { rows: ResultRow[]; superseded: number } {
  const latest = new Map<string, ResultRow>();
  rows.forEach((row, index) => {
    validateRow(row, index);
    const key = slotKey(row);
    const seen = latest.get(key);
    if (seen === undefined || isLater(row, seen)) latest.set(key, row);
  });
  const chosen = new Set(latest.values());
  const out: ResultRow[] = [];
  for (const row of rows) if (chosen.delete(row)) out.push(row);
  return { rows: out, superseded: rows.length - out.length };
}
