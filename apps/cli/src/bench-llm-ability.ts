/**
 * bench-llm's ability and agent-fitness tests: the `quick` profile's cases, each sent to the model with
 * the timing client (tool scripts and later turns played out), recovered once when a reasoning model
 * thinks past its budget, and graded by the cases package (code in the sandbox).
 */
import type { ChatMessage, GradeOutcome, ToolCall } from '@crucibleforge/core';
import { grade, initialMessages, nextMessages, type MaterializedCase } from '@crucibleforge/cases';
import type { Sandbox } from '@crucibleforge/sandbox';
import { isOverflow } from '@crucibleforge/runner';
import { FATAL_TIMING_CODES, isTimingError, type TimedCompleter, type TimedCompletion } from '@crucibleforge/timing';

/** Reasoning models get the case budget times this (the runner's default reasoning factor). */
export const BUDGET_FACTOR = 4;

/** One request of a test, kept whole for the results file. */
export interface TestRequest {
  /** true for the retry with reasoning switched off after an overflow. */
  reasoning_off: boolean;
  max_tokens: number;
  response: { content: string; reasoning: string; tool_calls: ToolCall[]; finish_reason: string | null; model: string | null };
  timings: Omit<TimedCompletion, 'reply' | 'requested_model'>;
}

export interface TestResult {
  id: string;
  title: string;
  category: string;
  revision: string;
  seed: number | null;
  /** pass / fail from the grader; error when the endpoint failed; skipped when it could not be graded here. */
  status: GradeOutcome['status'];
  reason: string;
  score: number | null;
  /** The agent grader's named parts (Task Acknowledgment, Format Adherence, Conciseness). */
  parts: { name: string; pass: boolean; reason: string }[] | null;
  details: Record<string, unknown> | null;
  overflow: { happened: boolean; recovered: boolean };
  requests: TestRequest[];
  transcript: ChatMessage[];
}

export interface AbilityOptions {
  completer: TimedCompleter;
  /** null when no sandbox is available: code tests are skipped with `noSandboxReason`. */
  sandbox: Sandbox | null;
  noSandboxReason: string;
  signal?: AbortSignal;
  onResult?: (result: TestResult) => void;
}

function partsOf(outcome: GradeOutcome): TestResult['parts'] {
  const parts = outcome.details?.['parts'];
  return Array.isArray(parts) ? (parts as TestResult['parts']) : null;
}

function record(result: TimedCompletion, reasoningOff: boolean, maxTokens: number): TestRequest {
  const { reply, requested_model: _requested, ...timings } = result;
  return {
    reasoning_off: reasoningOff,
    max_tokens: maxTokens,
    response: { content: reply.content, reasoning: reply.reasoning, tool_calls: reply.tool_calls, finish_reason: reply.finish_reason, model: reply.model },
    timings,
  };
}

/** A request error that makes every later request pointless (the endpoint is gone, the key is wrong, …). */
export function isFatal(error: unknown): boolean {
  return isTimingError(error) && (FATAL_TIMING_CODES as readonly string[]).includes(error.code);
}

/** Plays one case against the model and grades it. Fatal endpoint errors propagate; others become an `error` result. */
export async function runTest(c: MaterializedCase, options: AbilityOptions): Promise<TestResult> {
  const base = { id: c.id, title: c.title, category: c.category, revision: c.revision, seed: c.seed };
  const requests: TestRequest[] = [];
  const transcript: ChatMessage[] = initialMessages(c);
  const overflow = { happened: false, recovered: false };
  const finish = (outcome: GradeOutcome): TestResult => ({
    ...base,
    status: outcome.status,
    reason: outcome.reason,
    score: outcome.score ?? null,
    parts: partsOf(outcome),
    details: outcome.details ?? null,
    overflow,
    requests,
    transcript,
  });
  if (c.grader.type === 'code' && !options.sandbox) return finish({ status: 'skipped', reason: options.noSandboxReason });
  const ask = async (reasoningOff: boolean, maxTokens: number) => {
    const result = await options.completer.completeTimed({
      messages: [...transcript],
      ...(c.tools.length > 0 ? { tools: c.tools } : {}),
      max_tokens: maxTokens,
      temperature: c.temperature,
      ...(reasoningOff ? { reasoning: 'off' as const } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    requests.push(record(result, reasoningOff, maxTokens));
    return result;
  };
  let last: TimedCompletion | null = null;
  try {
    for (;;) {
      last = await ask(false, c.max_tokens * BUDGET_FACTOR);
      if (isOverflow(last.reply)) {
        overflow.happened = true;
        const retry = await ask(true, c.max_tokens);
        if (retry.reply.content.trim() !== '' || retry.reply.tool_calls.length > 0) {
          overflow.recovered = true;
          last = retry;
        }
      }
      const reply = last.reply;
      transcript.push({ role: 'assistant', content: reply.content, ...(reply.tool_calls.length ? { tool_calls: reply.tool_calls } : {}) });
      const next = nextMessages(c, transcript);
      if (next.done) break;
      transcript.push(...next.messages);
    }
  } catch (error) {
    if (isFatal(error)) throw error;
    return finish({ status: 'error', reason: `request failed: ${error instanceof Error ? error.message : String(error)}` });
  }
  const reply = last.reply;
  const calls = transcript.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
  const outcome = await grade(
    c,
    { content: reply.content, tool_calls: calls, finish_reason: reply.finish_reason, transcript },
    { ...(options.sandbox ? { sandbox: options.sandbox } : {}), ...(options.signal ? { signal: options.signal } : {}) },
  );
  return finish(outcome);
}

/** Runs the tests one after another (a local server serves one request at a time). */
export async function runTests(cases: readonly MaterializedCase[], options: AbilityOptions): Promise<TestResult[]> {
  const out: TestResult[] = [];
  for (const c of cases) {
    const result = await runTest(c, options);
    options.onResult?.(result);
    out.push(result);
  }
  return out;
}
