import { EMPTY_USAGE, type ChatMessage, type ChatRequest, type GradeOutcome, type ReasoningMode, type ToolCall, type TokenUsage } from '@crucibleforge/core';
import { isSandboxError, type Sandbox } from '@crucibleforge/sandbox';
import type { TimedCompleter, TimedCompletion as TimedReply } from '@crucibleforge/timing';
import { completeWhole } from './client';
import type { ResolvedModel } from './config';
import { addCost, costOfUsage, sumUsage } from './cost';
import { contextSkip, resultRow, type CaseRequest, type PlannedCase } from '@crucibleforge/cases';
import { MAX_CASE_TURNS, type CaseDriver } from './driver';
import { wrongModelReason, type VerifyMode } from './guard';
import { withRetries, type AttemptTrace, type ClassifiedFailure, type RetryPolicy, type RetryWorld } from './retry';
import type { RunRow } from './storage-types';

/** Everything one model's cases share while it runs. `reasoning` is learned (auto models flip on). */
export interface ModelContext {
  runId: string;
  resolved: ResolvedModel;
  client: TimedCompleter;
  driver: CaseDriver;
  sandbox: () => Promise<Sandbox>;
  verify: VerifyMode;
  reasoning: boolean;
  contextLength: number | null;
  retry: RetryPolicy;
  retryWorld: RetryWorld;
  signal: AbortSignal;
  now: () => Date;
  newId: () => string;
  /** `reasoning-off` (a run): one retry with thinking off. `full` (recover): then a "final answer now" follow-up. */
  ladder: 'reasoning-off' | 'full';
}

/** How much of the cut-off reasoning the `continue` rung hands back to the model. */
export const CONTINUE_TAIL_CHARS = 6000;
const CONTINUE_PROMPT =
  'Your reasoning above was cut off at the token limit. Do not think any further: give only your final answer now, in the format the question asked for.';

export type CaseOutcome =
  | { kind: 'row'; row: RunRow; endpointFailure: boolean; failure?: ClassifiedFailure }
  | { kind: 'wrong-model'; message: string }
  /** Cut off by a stop (the user's, or the model's: wrong model, endpoint failures, lost lease): a row of class `aborted`, never graded. */
  | { kind: 'aborted'; row: RunRow };

/** The text of why a signal fired. */
export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : reason === undefined ? 'stopped' : String(reason);
}

/** The budget actually sent: reasoning models get the case budget × factor; the model's cap always applies. */
export function sentBudget(ctx: Pick<ModelContext, 'resolved' | 'reasoning'>, caseBudget: number): number {
  const m = ctx.resolved.model;
  const boosted = ctx.reasoning ? Math.ceil(caseBudget * m.reasoning_factor) : caseBudget;
  return Math.min(boosted, m.max_tokens ?? Number.POSITIVE_INFINITY);
}

/** Thought until the budget ran out: cut off, nothing visible, something in the reasoning channel. */
/** A failed grade of a reply whose reasoning overflowed and was not recovered, said as TRUNCATED. */
export function truncatedGrade(grade: GradeOutcome, budget: number, spent: number): GradeOutcome {
  if (grade.status !== 'fail') return grade;
  const rest = grade.reason.replace(/^TRUNCATED[^:]*:\s*/, '');
  return { ...grade, reason: `TRUNCATED at ${budget} tokens (${spent} reasoning tokens); ${rest}` };
}

export function isOverflow(reply: TimedReply['reply']): boolean {
  return (
    reply.finish_reason === 'length' &&
    reply.content.trim() === '' &&
    reply.tool_calls.length === 0 &&
    reply.reasoning.trim() !== ''
  );
}

const hasAnswer = (r: TimedReply['reply']) => r.content.trim() !== '' || r.tool_calls.length > 0;

class WrongModel {
  constructor(readonly message: string) {}
}
class Failed {
  constructor(readonly failure: ClassifiedFailure) {}
}

/** Accumulates the calls of one case: billing covers every attempt, timings are the answer's. */
class Tally {
  usage: TokenUsage = EMPTY_USAGE;
  cost: number | null = null;
  e2e = 0;
  reasoning: string[] = [];
  calls = 0;
  /** Every request attempt of the case, the faults met and the waits between them. */
  readonly attempts: NonNullable<RunRow['attempts']> = { requests: 0, retries: 0, wait_s: 0, faults: [] };
  stream: RunRow['stream'] | null = null;
  constructor(private readonly ctx: ModelContext) {}
  trace(trace: AttemptTrace): void {
    this.attempts.requests += trace.attempts;
    this.attempts.retries += trace.attempts - 1;
    this.attempts.wait_s = Math.round((this.attempts.wait_s + trace.wait_s) * 1000) / 1000;
    this.attempts.faults.push(...trace.faults);
    if (trace.stream) {
      this.stream = {
        dropped_events: (this.stream?.dropped_events ?? 0) + trace.stream.dropped_events,
        decode_errors: (this.stream?.decode_errors ?? 0) + trace.stream.decode_errors,
        unexpected_end: (this.stream?.unexpected_end ?? false) || trace.stream.unexpected_end,
      };
    }
  }
  /** The row fields of the attempts: always `attempts`, `stream` when a stream arrived damaged. */
  fields(): Pick<RunRow, 'attempts' | 'stream'> {
    return { attempts: this.attempts, ...(this.stream ? { stream: this.stream } : {}) };
  }
  add(result: TimedReply): void {
    this.usage = sumUsage(this.usage, result.reply.usage);
    this.cost = addCost(this.cost, costOfUsage(result.reply.usage, this.ctx.resolved.prices));
    this.e2e += result.e2e_s ?? 0;
    if (result.reply.reasoning.trim() !== '') this.reasoning.push(result.reply.reasoning);
    this.calls += 1;
  }
}

async function ask(
  ctx: ModelContext,
  tally: Tally,
  request: Omit<ChatRequest, 'signal'>,
): Promise<TimedReply> {
  const attempted = await withRetries(
    () => completeWhole(ctx.client, { ...request, signal: ctx.signal }),
    ctx.retry,
    { ...ctx.retryWorld, signal: ctx.signal },
  );
  tally.trace(attempted);
  if (!attempted.ok) throw new Failed(attempted.failure);
  const result = attempted.value;
  const wrong = wrongModelReason(ctx.verify, ctx.resolved.model.id, result.served_model ?? result.reply.model);
  if (wrong) throw new WrongModel(wrong);
  tally.add(result);
  if (!ctx.reasoning && ctx.resolved.model.reasoning === 'auto' && result.reply.reasoning.trim() !== '') ctx.reasoning = true;
  return result;
}

interface OverflowState {
  happened: boolean;
  /** Overflows that recovery did not turn into an answer (a multi-step case can overflow more than once). */
  unrecovered: number;
  first?: RunRow['recovery'];
}

/** One model call with reasoning-overflow recovery: retried once with reasoning off on the case's own budget. */
async function askWithRecovery(
  ctx: ModelContext,
  tally: Tally,
  request: Omit<ChatRequest, 'signal'>,
  caseBudget: number,
  overflow: OverflowState,
): Promise<TimedReply> {
  const first = await ask(ctx, tally, request);
  if (!isOverflow(first.reply)) return first;
  overflow.happened = true;
  const record: NonNullable<RunRow['recovery']> = {
    mode: null,
    attempts: 1,
    first: {
      finish_reason: first.reply.finish_reason,
      completion_tokens: first.reply.usage.completion_tokens,
      reasoning_tokens: first.reply.usage.reasoning_tokens,
      reasoning_chars: first.reply.reasoning.length,
    },
  };
  overflow.first ??= record;
  if (!ctx.resolved.model.recovery) {
    overflow.unrecovered += 1;
    return first;
  }
  record.mode = 'reasoning-off';
  record.attempts = 2;
  try {
    const retryBudget = Math.min(caseBudget, ctx.resolved.model.max_tokens ?? caseBudget);
    const second = await ask(ctx, tally, { ...request, reasoning: 'off', max_tokens: retryBudget });
    if (hasAnswer(second.reply)) return second;
    if (ctx.ladder === 'full') {
      record.mode = 'continue';
      record.attempts = 3;
      const tail = first.reply.reasoning.slice(-CONTINUE_TAIL_CHARS);
      const third = await ask(ctx, tally, {
        ...request,
        messages: [...request.messages, { role: 'assistant', content: tail }, { role: 'user', content: CONTINUE_PROMPT }],
        reasoning: 'off',
        max_tokens: retryBudget,
      });
      if (hasAnswer(third.reply)) return third;
    }
    overflow.unrecovered += 1;
    return first;
  } catch (error) {
    if (error instanceof WrongModel) throw error;
    // A failed recovery keeps the honest first result and is not an endpoint failure of the case.
    record.error = error instanceof Failed ? error.failure.message : String(error);
    overflow.unrecovered += 1;
    return first;
  }
}

function baseRow(ctx: ModelContext, planned: PlannedCase, seed: number | null, started: Date): Omit<RunRow, 'grade'> {
  // The grade is filled when the case finishes; until then the row is the exported builder's empty row.
  const { grade: _unset, ...row } = resultRow({
    run_id: ctx.runId,
    model: ctx.resolved.label,
    model_id: ctx.resolved.model.id,
    provider: ctx.resolved.providerName,
    case: planned,
    seed,
    cost_usd: null,
    grade: { status: 'pending', reason: '' },
    grader_version: null, // the driver's own version is added when the row is finished
    started_at: started,
  });
  return { ...row, attempt_id: ctx.newId(), max_tokens_sent: null };
}

/** Runs one case against one model and returns its row (or why there is none). Never throws for request errors. */
export async function runCase(ctx: ModelContext, planned: PlannedCase, seed: number | null): Promise<CaseOutcome> {
  const started = ctx.now();
  const base = baseRow(ctx, planned, seed, started);
  const graded = ctx.driver.graderVersion ? { grader_version: ctx.driver.graderVersion } : {};
  const finish = (extra: Partial<RunRow> & { grade: GradeOutcome }): RunRow => ({ ...base, ...graded, ...extra, finished_at: ctx.now().toISOString() });

  if (planned.needs_sandbox) {
    const unavailable = await ctx.sandbox().then(
      () => null,
      (error: unknown) => (isSandboxError(error, 'SANDBOX_UNAVAILABLE') ? error.message : null),
    );
    if (unavailable !== null) return { kind: 'row', row: finish({ grade: { status: 'skipped', reason: `not run: no sandbox (${unavailable})` } }), endpointFailure: false };
  }
  let materialized: unknown;
  let request: CaseRequest;
  try {
    materialized = await ctx.driver.materialize(planned, seed, { sandbox: ctx.sandbox });
    request = ctx.driver.request(materialized);
  } catch (error) {
    const message = `could not prepare the case: ${error instanceof Error ? error.message : String(error)}`;
    return { kind: 'row', row: finish({ grade: { status: 'error', reason: message }, error_class: 'case-error', error_message: message }), endpointFailure: false };
  }
  const budget = sentBudget(ctx, planned.max_tokens);
  // the cases package's one context rule, with the budget actually sent (× reasoning_factor for a reasoning model)
  const skip = contextSkip({ min_context: request.min_context, max_tokens: planned.max_tokens }, ctx.contextLength, budget);
  if (skip) return { kind: 'row', row: finish({ grade: skip }), endpointFailure: false };
  const reasoningMode: ReasoningMode = ctx.resolved.model.reasoning;
  const tally = new Tally(ctx);
  const overflow: OverflowState = { happened: false, unrecovered: 0 };
  const transcript: ChatMessage[] = [...request.messages];
  const callsByTurn: ToolCall[][] = [];
  let last: TimedReply | null = null;
  const common = {
    max_tokens: budget,
    temperature: request.temperature ?? ctx.resolved.model.temperature,
    reasoning: reasoningMode,
    ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
  };
  try {
    for (let turn = 0; turn < MAX_CASE_TURNS; turn++) {
      last = await askWithRecovery(ctx, tally, { ...common, messages: [...transcript] }, planned.max_tokens, overflow);
      const reply = last.reply;
      // Only the visible channel goes back into the history; reasoning is never fed back.
      transcript.push({ role: 'assistant', content: reply.content, ...(reply.tool_calls.length > 0 ? { tool_calls: reply.tool_calls } : {}) });
      callsByTurn.push(reply.tool_calls);
      const next = ctx.driver.next(materialized, transcript);
      if (next.done) break;
      transcript.push(...next.messages);
    }
  } catch (error) {
    if (error instanceof WrongModel) return { kind: 'wrong-model', message: error.message };
    if (error instanceof Failed) {
      if (error.failure.errorClass === 'aborted' || ctx.signal.aborted) {
        const why = ctx.signal.aborted ? abortReason(ctx.signal) : error.failure.message;
        return {
          kind: 'aborted',
          row: finish({
            messages: request.messages,
            max_tokens_sent: budget,
            usage: tally.usage,
            cost_usd: tally.cost,
            grade: { status: 'error', reason: `aborted, not graded: ${why}` },
            error_class: 'aborted',
            error_message: why,
            ...tally.fields(),
          }),
        };
      }
      const tries = tally.attempts.requests > 1 ? ` after ${tally.attempts.requests} attempts` : '';
      const reason = `request failed (${error.failure.errorClass})${tries}, not graded: ${error.failure.message}`;
      return {
        kind: 'row',
        row: finish({
          messages: request.messages,
          max_tokens_sent: budget,
          usage: tally.usage,
          cost_usd: tally.cost,
          grade: { status: 'error', reason },
          error_class: error.failure.errorClass,
          error_message: error.failure.message,
          ...tally.fields(),
        }),
        endpointFailure: true,
        failure: error.failure,
      };
    }
    throw error;
  }
  const reply = last!.reply;
  const allCalls = callsByTurn.flat();
  let grade: GradeOutcome;
  try {
    grade = await ctx.driver.grade(
      materialized,
      { content: reply.content, tool_calls: allCalls, tool_calls_by_turn: callsByTurn, transcript, finish_reason: reply.finish_reason },
      { sandbox: ctx.sandbox },
    );
  } catch (error) {
    grade = { status: 'error', reason: `grader failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (overflow.unrecovered > 0) grade = truncatedGrade(grade, budget, overflow.first?.first.reasoning_tokens ?? overflow.first?.first.completion_tokens ?? budget);
  const row = finish({
    messages: request.messages,
    content: reply.content,
    reasoning: tally.reasoning.join('\n\n'),
    tool_calls: allCalls,
    ...(tally.calls > 1 || transcript.length > request.messages.length + 1 ? { transcript } : {}),
    finish_reason: reply.finish_reason,
    timings: { ttft_s: last!.ttft_s, ttft_content_s: last!.ttft_content_s, e2e_s: tally.e2e, decode_tps: last!.decode_tps },
    usage: tally.usage,
    cost_usd: tally.cost,
    grade,
    max_tokens_sent: budget,
    ...tally.fields(),
    ...(overflow.happened ? { overflow: { happened: true, recovered: overflow.unrecovered === 0, budget }, recovery: overflow.first } : {}),
    ...(request.judge_input ? { judge_input: request.judge_input } : {}),
  });
  return { kind: 'row', row, endpointFailure: false };
}
