import type { ResultRow } from '@crucibleforge/core';
import { wilsonInterval } from '@crucibleforge/core';
import type { RateCell } from './types';

/** How a counted row enters the tables. Only `pass` and `fail` are in the denominator. */
export type RowOutcome = 'pass' | 'fail' | 'pending' | 'skipped' | 'error' | 'judge-error';

/** A judge that could not give a verdict is its own outcome, never a pass, a fail or "pending". */
export function rowOutcome(row: ResultRow): RowOutcome {
  const status = row.grade.status;
  if (status === 'pass' || status === 'fail') return status;
  if (row.judge?.verdict === 'judge-error') return 'judge-error';
  return status;
}

/** What one row cost: `cost_usd`, else the provider-reported `usage.cost_usd`; null when neither is a number. */
export function rowCost(row: ResultRow): number | null {
  const cost = row.cost_usd ?? row.usage?.cost_usd ?? null;
  return typeof cost === 'number' && Number.isFinite(cost) ? cost : null;
}

/** Counts, rate and 95 % Wilson interval over some rows. */
export function rateCell(rows: readonly ResultRow[]): RateCell {
  const cell: RateCell = {
    attempted: rows.length,
    passes: 0,
    fails: 0,
    graded: 0,
    rate: null,
    ci95: null,
    pending: 0,
    skipped: 0,
    errors: 0,
    judge_errors: 0,
  };
  for (const row of rows) {
    switch (rowOutcome(row)) {
      case 'pass':
        cell.passes += 1;
        break;
      case 'fail':
        cell.fails += 1;
        break;
      case 'pending':
        cell.pending += 1;
        break;
      case 'skipped':
        cell.skipped += 1;
        break;
      case 'error':
        cell.errors += 1;
        break;
      case 'judge-error':
        cell.judge_errors += 1;
        break;
    }
  }
  cell.graded = cell.passes + cell.fails;
  if (cell.graded > 0) {
    cell.rate = cell.passes / cell.graded;
    cell.ci95 = wilsonInterval(cell.passes, cell.graded);
  }
  return cell;
}
