import { neutralizeControls, type ResultRow, type RunManifest } from '@crucibleforge/core';

/** Why a model stopped in a run, as the runner stores it (`model-stopped` records). */
export interface ModelStopInput {
  model: string;
  /** preflight-failed, wrong-model, stalled, endpoint-down, endpoint-failures, budget, lease-failed, lease-lost, stopped. */
  reason: string;
  message: string;
  at: string;
}

/** Where a model stands: its stop, the cases it did not run, and what its requests met on the way. */
export interface ModelStatus {
  /** The latest stop, while the model still has cases not run; null once everything ran (or it never stopped). */
  stop: { reason: string; message: string; at: string } | null;
  /** Cases the runs planned for this model (union over the manifests naming it; else its rows). */
  planned: number;
  /** Cases with a final row (an endpoint error, a stop's aborted row or no row at all is not final). */
  ran: number;
  not_run: number;
  attempts: {
    requests: number;
    retries: number;
    /** Seconds waited between attempts. */
    wait_s: number;
    /** Faults met (retried or not), by class. */
    faults: Record<string, number>;
    /** Rows whose request failed, by class: never graded (errors, not fails). */
    failed: Record<string, number>;
    /** Stream events dropped by damaged streams (their rows were retried or left ungraded). */
    dropped_events: number;
  };
}

/** A row whose request failed (the endpoint's fault, or a stop), the runner's rule: not final, redone on resume. */
export function isEndpointErrorRow(row: ResultRow): boolean {
  return row.grade.status === 'error' && row.error_class !== undefined;
}

const caseKey = (id: string, seed: number | null) => `${id}\u0000${seed ?? ''}`;

/** The status of one model over its counted rows (latest attempt per case), the manifests and the stops. */
export function modelStatus(model: string, rows: readonly ResultRow[], manifests: readonly RunManifest[], stops: readonly ModelStopInput[]): ModelStatus {
  const planned = new Set<string>();
  for (const m of manifests) if (m.models.some((x) => x.label === model)) for (const c of m.cases) planned.add(caseKey(c.id, c.seed));
  for (const r of rows) planned.add(caseKey(r.case_id, r.seed));
  const ran = rows.filter((r) => !isEndpointErrorRow(r)).length;
  const notRun = Math.max(0, planned.size - ran);
  const mine = stops.filter((s) => s.model === model).sort((a, b) => a.at.localeCompare(b.at));
  const last = mine.at(-1);
  const attempts: ModelStatus['attempts'] = { requests: 0, retries: 0, wait_s: 0, faults: {}, failed: {}, dropped_events: 0 };
  for (const r of rows) {
    if (r.attempts) {
      attempts.requests += r.attempts.requests;
      attempts.retries += r.attempts.retries;
      attempts.wait_s += r.attempts.wait_s;
      for (const f of r.attempts.faults) attempts.faults[f.class] = (attempts.faults[f.class] ?? 0) + 1;
    }
    if (r.stream) attempts.dropped_events += r.stream.dropped_events;
    if (isEndpointErrorRow(r)) attempts.failed[r.error_class!] = (attempts.failed[r.error_class!] ?? 0) + 1;
  }
  attempts.wait_s = Math.round(attempts.wait_s * 1000) / 1000;
  return {
    stop: last && notRun > 0 ? { reason: last.reason, message: last.message, at: last.at } : null,
    planned: planned.size,
    ran,
    not_run: notRun,
    attempts,
  };
}

const counted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');

/** Short status for a table cell: `stopped: wrong-model · 5 of 6 not run · 3 retries`, or `complete`. */
export function statusCell(s: ModelStatus): string {
  const parts: string[] = [];
  if (s.stop) parts.push(`stopped: ${s.stop.reason}`);
  if (s.not_run > 0) parts.push(`${s.not_run} of ${s.planned} not run`);
  if (s.attempts.retries > 0) parts.push(`${s.attempts.retries} retr${s.attempts.retries === 1 ? 'y' : 'ies'}`);
  return parts.length > 0 ? parts.join(' · ') : 'complete';
}

/** One full line: the stop and its reason, the cases not run, the retries and faults, the ungraded rows. */
export function statusLine(model: string, s: ModelStatus): string {
  const head = s.stop ? `${model}: stopped (${s.stop.reason}): ${s.stop.message}` : `${model}: ${s.not_run > 0 ? 'incomplete' : 'complete'}`;
  const parts = [`ran ${s.ran} of ${s.planned} cases${s.not_run > 0 ? `, ${s.not_run} not run` : ''}`];
  const a = s.attempts;
  if (a.retries > 0) parts.push(`${a.retries} retr${a.retries === 1 ? 'y' : 'ies'}, waited ${a.wait_s.toFixed(1)} s`);
  if (Object.keys(a.faults).length > 0) parts.push(`faults met: ${counted(a.faults)}`);
  if (Object.keys(a.failed).length > 0) parts.push(`not graded (request failed): ${counted(a.failed)}`);
  if (a.dropped_events > 0) parts.push(`${a.dropped_events} stream event(s) dropped`);
  return `${head} — ${parts.join('; ')}`;
}

/** The model-status table every form shows: one row per model of the runs. */
export const STATUS_COLUMNS = ['Model', 'Status', 'Stop reason', 'Not run', 'Retries', 'Faults met', 'Not graded (request failed)', 'Why'] as const;

export function statusTableRows(models: readonly { model: string; status: ModelStatus }[]): string[][] {
  return models.map(({ model, status: s }) => [
    model,
    s.stop ? 'stopped' : s.not_run > 0 ? 'incomplete' : 'complete',
    s.stop?.reason ?? '—',
    `${s.not_run} of ${s.planned}`,
    s.attempts.retries > 0 ? `${s.attempts.retries} (waited ${s.attempts.wait_s.toFixed(1)} s)` : '0',
    Object.keys(s.attempts.faults).length > 0 ? counted(s.attempts.faults) : '—',
    Object.keys(s.attempts.failed).length > 0 ? counted(s.attempts.failed) : '0',
    s.stop?.message ?? '—',
  ]);
}

/** Every model's status as terminal lines (what `crucibleforge report` prints under the leaderboard); a stop's
 * message (an endpoint's words) shows its control characters instead of obeying them. */
export function renderModelStatus(models: readonly { model: string; status: ModelStatus }[]): string {
  return models.map((m) => `  ${neutralizeControls(statusLine(m.model, m.status))}`).join('\n');
}
