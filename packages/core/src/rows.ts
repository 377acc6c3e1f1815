import type { ResultRow } from './results';

/** What identifies one case attempt slot of a run: the model (label), the case and the seed it was drawn with. */
export interface RowKey {
  model: string;
  case_id: string;
  seed: number | null;
}

/** The one key string for a row slot (model, case, seed): the unit "the latest attempt" works on. */
export function rowKey(key: RowKey): string {
  return `${key.model}\u0000${key.case_id}\u0000${key.seed ?? ''}`;
}

/** True when `a` is a later attempt than `b`: finished_at, then started_at, then run id (all ascending). */
export function isLaterAttempt(
  a: Pick<ResultRow, 'finished_at' | 'started_at' | 'run_id'>,
  b: Pick<ResultRow, 'finished_at' | 'started_at' | 'run_id'>,
): boolean {
  const fa = Date.parse(a.finished_at);
  const fb = Date.parse(b.finished_at);
  if (fa !== fb) return fa > fb;
  const sa = Date.parse(a.started_at);
  const sb = Date.parse(b.started_at);
  if (Number.isFinite(sa) && Number.isFinite(sb) && sa !== sb) return sa > sb;
  return a.run_id > b.run_id;
}

/**
 * The latest attempt per (model, case, seed), whatever the input order (rows of several runs, or a run
 * read from its log): returned in input order, with how many older attempts were dropped.
 */
export function latestAttempts<R extends RowKey & Pick<ResultRow, 'finished_at' | 'started_at' | 'run_id'>>(rows: readonly R[]): { rows: R[]; superseded: number } {
  const latest = new Map<string, R>();
  for (const row of rows) {
    const key = rowKey(row);
    const seen = latest.get(key);
    if (seen === undefined || isLaterAttempt(row, seen)) latest.set(key, row);
  }
  const chosen = new Set(latest.values());
  const out = rows.filter((row) => chosen.delete(row));
  return { rows: out, superseded: rows.length - out.length };
}
