import type { JudgeIdentity } from '@crucibleforge/core';
import {
  checkJudgeIndependence,
  formatCanaryReport,
  gradeFromVerdict,
  judgeAgainstReference,
  referenceJudgeIdentity,
  runCanary,
  sameJudge,
} from '@crucibleforge/judge';
import pLimit from 'p-limit';
import { apiKeyFor, resolveModel, type ResolvedModel } from './config';
import { RunnerError } from './errors';
import type { ConfigInput } from './plan';
import { loadRun, RunLog } from './storage';
import type { RunRow } from './storage-types';
import type { RunWorld } from './world';
import { makeRedactor, redactDeep } from '@crucibleforge/core';
import { worldFor } from './api';

export type JudgeEvent =
  | { type: 'judge-start'; run_id: string; rows: number; judge: JudgeIdentity }
  | { type: 'canary'; passed: boolean; report: string }
  | { type: 'judged'; model: string; case_id: string; verdict: 'correct' | 'incorrect' | 'judge-error'; note: string }
  | { type: 'notice'; message: string };

export interface JudgeRunOptions {
  config: ConfigInput;
  env: Record<string, string | undefined>;
  resultsDir: string;
  runId: string;
  /** Also retry rows whose earlier verdict was a judge-error. */
  retryErrors?: boolean;
  /** Let the judge score its own answers (recorded; off by default). */
  forceSelfJudge?: boolean;
  /**
   * Re-judge rows whose verdict came from another judge identity (model, endpoint or prompt version), so a
   * run never mixes judges after the judge changed; rows this judge already judged stay as they are.
   */
  force?: boolean;
  /** Only these model labels. */
  models?: string[];
  /** Run the calibration canary first (default true). */
  canary?: boolean;
  world?: RunWorld;
  signal?: AbortSignal;
  onEvent?: (event: JudgeEvent) => void;
}

export interface JudgeSummary {
  run_id: string;
  judge: JudgeIdentity | null;
  judged: number;
  correct: number;
  incorrect: number;
  judge_errors: number;
  /** Rows left pending because the judge is the model under test (use forceSelfJudge). */
  self_judge_skipped: number;
  /** Rows still waiting for a verdict after this pass. */
  pending: number;
}

/** A row whose verdict came from a judge other than `current` (never one without a verdict). */
function judgedByAnother(row: RunRow, current: JudgeIdentity | null): boolean {
  return current !== null && row.judge_input !== undefined && row.judge !== undefined && !sameJudge(row.judge.identity, current);
}

/**
 * A judged row that has no usable verdict yet (or a judge-error one, when retrying), or — with `force`
 * (`rejudge` is then the current judge) — one another judge gave its verdict.
 */
function wantsJudging(row: RunRow, retryErrors: boolean, rejudge: JudgeIdentity | null): boolean {
  if (judgedByAnother(row, rejudge)) return true;
  if (!row.judge_input || row.grade.status !== 'pending') return false;
  if (!row.judge) return true;
  return row.judge.verdict === 'judge-error' && retryErrors;
}

/** The configured judge: its model, the reference the judge package takes, and the identity it records. */
function judgeOf(model: ResolvedModel): { model: ResolvedModel; ref: { model: string; endpoint: string }; identity: JudgeIdentity } {
  const ref = { model: model.model.id, endpoint: model.provider.base_url };
  return { model, ref, identity: referenceJudgeIdentity(ref) };
}

function describeJudge(identity: JudgeIdentity): string {
  return `${identity.model} at ${identity.endpoint} (prompt ${identity.prompt_version})`;
}

/**
 * Judges a run's pending rows with the configured judge, after generation: canary first, the
 * self-judging guard, then each verdict appended to the run's log (never rewriting a row).
 */
export async function judgeRun(options: JudgeRunOptions): Promise<JudgeSummary> {
  // Judge errors carry endpoint text: no key reaches an event, a stored verdict or an error message.
  let redact = (text: string) => text;
  const emit = (event: JudgeEvent) => options.onEvent?.(redactDeep(event, redact));
  const run = await loadRun(options.resultsDir, options.runId);
  const judge = options.config.judge ? judgeOf(resolveModel(options.config, options.config.judge.model)) : null;
  const rejudge = options.force && judge ? judge.identity : null;
  const rows = run.rows.filter(
    (r) => wantsJudging(r, options.retryErrors ?? false, rejudge) && (!options.models || options.models.includes(r.model)),
  );
  const summary: JudgeSummary = {
    run_id: options.runId,
    judge: null,
    judged: 0,
    correct: 0,
    incorrect: 0,
    judge_errors: 0,
    self_judge_skipped: 0,
    pending: run.rows.filter((r) => r.grade.status === 'pending').length,
  };
  if (rows.length === 0) return summary;
  if (!options.config.judge || !judge) {
    throw new RunnerError('RUNNER_NO_JUDGE', `${rows.length} rows wait for a judge, but models.yaml has no judge: block (judge: { model: LABEL })`);
  }
  const { model: judgeModel, ref: identityRef, identity } = judge;
  const world = worldFor({ env: options.env, ...(options.world ? { world: options.world } : {}) });
  const judgeKey = apiKeyFor(judgeModel, options.env);
  redact = makeRedactor([...world.secrets, judgeKey]);
  const client = world.clientFactory(judgeModel, judgeKey, { fetch: world.fetch, clock: world.clock });
  summary.judge = identity;
  const replaced = rows.filter((r) => judgedByAnother(r, rejudge));
  if (replaced.length > 0) {
    const judges = [...new Set(replaced.map((r) => describeJudge(r.judge!.identity)))];
    emit({ type: 'notice', message: `re-judging ${replaced.length} rows judged by ${judges.join('; ')} with ${describeJudge(identity)}` });
  }

  // The self-judging guard, per model under test: its rows stay pending unless forced.
  const candidates = [...new Set(rows.map((r) => r.model_id))];
  const selfJudged = new Set<string>();
  for (const id of candidates) {
    try {
      const check = checkJudgeIndependence(identity.model, [id], { force: options.forceSelfJudge ?? false });
      if (check.forced) emit({ type: 'notice', message: `forced: ${identity.model} judges its own answers (${id})` });
    } catch (error) {
      selfJudged.add(id);
      emit({ type: 'notice', message: error instanceof Error ? error.message : String(error) });
    }
  }
  const todo = rows.filter((r) => !selfJudged.has(r.model_id));
  summary.self_judge_skipped = rows.length - todo.length;
  emit({ type: 'judge-start', run_id: options.runId, rows: todo.length, judge: identity });
  if (todo.length === 0) return summary;

  const callOptions = {
    complete: client,
    identity: identityRef,
    random: world.random,
    now: world.now,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.config.judge.max_tokens ? { maxTokens: options.config.judge.max_tokens } : {}),
    ...(options.config.judge.structured_output === false ? { structuredOutput: false } : {}),
  };
  if (options.canary !== false) {
    const report = await runCanary(callOptions);
    emit({ type: 'canary', passed: report.passed, report: formatCanaryReport(report) });
    if (!report.passed) {
      throw new RunnerError('RUNNER_CANARY_FAILED', redact(`the judge ${identity.model} failed its calibration canary; nothing was judged.\n${formatCanaryReport(report)}`), {
        details: { report: redactDeep(report, redact) },
      });
    }
  }
  const log = await RunLog.open(options.resultsDir, options.runId);
  try {
    const limit = pLimit(judgeModel.concurrency);
    await Promise.all(
      todo.map((row) =>
        limit(async () => {
          if (options.signal?.aborted) return;
          const record = await judgeAgainstReference(
            {
              question: row.judge_input!.question,
              reference: row.judge_input!.reference,
              ...(row.judge_input!.facts?.length ? { facts: row.judge_input!.facts } : {}),
              ...(row.judge_input!.focus ? { focus: row.judge_input!.focus } : {}),
              answer: row.content,
              caseId: row.case_id,
            },
            { ...callOptions, samples: options.config.judge!.samples },
          );
          const grade = gradeFromVerdict(record);
          await log.append(
            redactDeep(
              { kind: 'judge', key: { model: row.model, case_id: row.case_id, seed: row.seed }, attempt_id: row.attempt_id, judge: record, grade },
              redact,
            ),
          );
          summary.judged += 1;
          if (record.verdict === 'correct') summary.correct += 1;
          else if (record.verdict === 'incorrect') summary.incorrect += 1;
          else summary.judge_errors += 1;
          emit({ type: 'judged', model: row.model, case_id: row.case_id, verdict: record.verdict, note: record.note });
        }),
      ),
    );
  } finally {
    await log.close();
  }
  summary.pending = (await loadRun(options.resultsDir, options.runId)).rows.filter((r) => r.grade.status === 'pending').length;
  return summary;
}

