import type { ChatMessage, GradeOutcome, RowKey, ToolCall } from '@crucibleforge/core';
import type { Sandbox } from '@crucibleforge/sandbox';
import { defaultDriver } from './api';
import { truncatedGrade } from './case-run';
import type { CaseDriver, FinalReply } from './driver';
import { RunnerError } from './errors';
import { loadRun, RunLog } from './storage';
import type { RunRow } from './storage-types';

export interface RegradeOptions {
  resultsDir: string;
  runId: string;
  /** The grading sandbox (code cases, derive programs); called once, when first needed. */
  sandbox: () => Promise<Sandbox>;
  /** Only these model labels. */
  models?: string[];
  /** Default: the cases package over the run's own cases dir. */
  driver?: CaseDriver;
  /** Grade and report, but write nothing. */
  dryRun?: boolean;
  now?: () => Date;
}

export interface RegradeChange {
  model: string;
  case_id: string;
  seed: number | null;
  from: { status: GradeOutcome['status']; reason: string; grader_version: string | null };
  to: { status: GradeOutcome['status']; reason: string };
}

export interface RegradeSummary {
  run_id: string;
  grader_version: string;
  /** Rows graded again (a new grade record each, unless dry run). */
  regraded: number;
  /** Of those, the rows whose status changed. */
  changed: RegradeChange[];
  /** Rows left as they are, with why (judged, endpoint error, skipped, the case's question changed, gone). */
  skipped: { model: string; case_id: string; seed: number | null; reason: string }[];
  dry_run: boolean;
}

/** What the grader sees of a stored row: the final content, every call, the whole conversation. */
export function storedReply(row: RunRow): FinalReply {
  const transcript: ChatMessage[] = row.transcript ?? [...row.messages, { role: 'assistant', content: row.content, ...(row.tool_calls.length > 0 ? { tool_calls: row.tool_calls } : {}) }];
  const byTurn: ToolCall[][] = transcript.filter((m) => m.role === 'assistant').map((m) => m.tool_calls ?? []);
  return { content: row.content, tool_calls: row.tool_calls, tool_calls_by_turn: byTurn, transcript, finish_reason: row.finish_reason };
}

/**
 * Re-grades the stored replies of a run with the current graders, without a single model call: each
 * row's case is materialised again for its seed and its reply graded; a `regrade` record with the new
 * grade and the grader version is appended beside the old records (nothing is rewritten), and the report
 * then shows which version graded each row. Rows kept as they are: judged ones (the judge decides them;
 * see `judgeRun`), endpoint errors and context skips (no reply), and rows whose case question changed
 * (another revision: the reply answered a different question).
 */
export async function regradeRun(options: RegradeOptions): Promise<RegradeSummary> {
  const run = await loadRun(options.resultsDir, options.runId);
  const driver = options.driver ?? (await defaultDriver(run.manifest.runner.cases_dir));
  const version = driver.graderVersion;
  if (!version) throw new RunnerError('RUNNER_CONFIG_INVALID', 'the case driver names no grader version: nothing to record a re-grade under');
  const planned = new Map((await driver.plan({ profile: run.manifest.profile, categories: run.manifest.runner.categories })).map((p) => [p.id, p]));
  const now = options.now ?? (() => new Date());
  const summary: RegradeSummary = { run_id: options.runId, grader_version: version, regraded: 0, changed: [], skipped: [], dry_run: options.dryRun ?? false };
  const rows = run.rows.filter((r) => !options.models || options.models.includes(r.model));
  const skip = (row: RunRow, reason: string) => summary.skipped.push({ model: row.model, case_id: row.case_id, seed: row.seed, reason });
  const records: { key: RowKey; attempt_id: string; grade: GradeOutcome }[] = [];
  for (const row of rows) {
    if (row.error_class !== undefined || row.grade.status === 'error') {
      skip(row, 'no reply to grade (an error row)');
      continue;
    }
    if (row.grade.status === 'skipped') {
      skip(row, 'skipped (not run)');
      continue;
    }
    if (row.judge_input !== undefined || row.judge !== undefined) {
      skip(row, 'judged (the judge decides it)');
      continue;
    }
    const plan = planned.get(row.case_id);
    if (!plan) {
      skip(row, 'the case is no longer in the case set');
      continue;
    }
    if (plan.revision !== row.case_revision) {
      skip(row, `the question changed (revision ${row.case_revision} → ${plan.revision})`);
      continue;
    }
    const materialized = await driver.materialize(plan, row.seed, { sandbox: options.sandbox });
    let grade: GradeOutcome;
    try {
      grade = await driver.grade(materialized, storedReply(row), { sandbox: options.sandbox });
    } catch (error) {
      grade = { status: 'error', reason: `grader failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (row.overflow?.happened && !row.overflow.recovered) {
      grade = truncatedGrade(grade, row.overflow.budget, row.recovery?.first.reasoning_tokens ?? row.recovery?.first.completion_tokens ?? row.overflow.budget);
    }
    summary.regraded += 1;
    if (grade.status !== row.grade.status) {
      summary.changed.push({
        model: row.model,
        case_id: row.case_id,
        seed: row.seed,
        from: { status: row.grade.status, reason: row.grade.reason, grader_version: row.grader_version ?? null },
        to: { status: grade.status, reason: grade.reason },
      });
    }
    records.push({ key: { model: row.model, case_id: row.case_id, seed: row.seed }, attempt_id: row.attempt_id, grade });
  }
  if (!summary.dry_run && records.length > 0) {
    const log = await RunLog.open(options.resultsDir, options.runId);
    try {
      const at = now().toISOString();
      for (const r of records) await log.append({ kind: 'regrade', ...r, grader_version: version, at });
    } finally {
      await log.close();
    }
  }
  return summary;
}
