import type { ChatCompleter, ChatMessage, ChatReply, FinishReason, ReasoningMode } from '@crucibleforge/core';
import type { z } from 'zod';
import { JudgeError } from './errors';
import { extractJson } from './json-extract';

/** One call to the judge model, as kept for auditing. */
export interface AttemptTrace {
  /** `first` = the plain request; `reasoning-off` = the same with reasoning off; `json-only` = a follow-up turn. */
  step: 'first' | 'reasoning-off' | 'json-only';
  reasoning: ReasoningMode;
  /** The reply's content (up to 2 000 characters), or null when the call threw. */
  content: string | null;
  finish_reason: FinishReason;
  /** The model the reply says it came from. */
  model: string | null;
  /** Why this attempt gave no verdict; null when it did. */
  problem: string | null;
  /** Whether this attempt asked for structured output (json_schema / response_format). */
  structured: boolean;
}

/** The outcome of asking for one JSON verdict through the whole retry ladder. */
export type AskResult<T> =
  | { ok: true; value: T; attempts: AttemptTrace[] }
  | { ok: false; problem: string; timedOut: boolean; attempts: AttemptTrace[] };

/**
 * The shared time limit of one judgement (all samples and retries together) plus the caller's signal.
 * The caller's abort is re-thrown as `JUDGE_ABORTED`; our own timeout is a judge-error value.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly own = new AbortController();

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    readonly timeoutMs: number | undefined,
  ) {
    if (timeoutMs !== undefined) {
      this.timer = setTimeout(() => this.own.abort(new Error(`judge timed out after ${timeoutMs} ms`)), timeoutMs);
      this.timer.unref?.();
    }
    this.signal = callerSignal ? AbortSignal.any([callerSignal, this.own.signal]) : this.own.signal;
  }

  get timedOut(): boolean {
    return this.own.signal.aborted;
  }

  /** Throws JUDGE_ABORTED when the caller has aborted. */
  checkCaller(): void {
    if (this.callerSignal?.aborted) {
      throw new JudgeError('JUDGE_ABORTED', 'judging was aborted by the caller', { cause: this.callerSignal.reason });
    }
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}

/** Resolves like `promise`, or rejects as soon as `signal` aborts, whether or not the callee honours it. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

export interface AskOptions<T> {
  complete: ChatCompleter;
  messages: ChatMessage[];
  schema: z.ZodType<T>;
  jsonSchema: { name: string; schema: Record<string, unknown> };
  /** Texts shown to the judge as data; JSON quoted from them is never taken as the verdict. */
  quoted: readonly string[];
  /** The follow-up turn used by the last step. */
  jsonOnlyReminder: string;
  reasoning: ReasoningMode;
  maxTokens: number;
  deadline: Deadline;
  /** false: never send json_schema (for endpoints that reject response_format). Default true. */
  structuredOutput?: boolean;
}

function statusOf(error: unknown): number | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const e = error as { status?: unknown; details?: { status?: unknown } };
  const status = typeof e.status === 'number' ? e.status : e.details?.status;
  if (typeof status === 'number') return status;
  const m = /\bHTTP (4\d\d)\b/.exec(error instanceof Error ? error.message : '');
  return m ? Number(m[1]) : undefined;
}

/** An HTTP 400-class answer that says the request itself was not accepted (not auth, rate or not-found). */
export function isRequestRejected(error: unknown): boolean {
  const status = statusOf(error);
  return status === 400 || status === 415 || status === 422;
}

const describeError = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Asks for one JSON verdict: the plain request, then the same with reasoning off, then a follow-up
 * turn asking for valid JSON only. Only the content channel is read; a verdict that appears only in
 * the reasoning text is ignored. A throwing or hanging completer is an unusable attempt, not a throw.
 */
export async function askForJson<T>(opts: AskOptions<T>): Promise<AskResult<T>> {
  const attempts: AttemptTrace[] = [];
  let lastContent = '';
  let problem = 'no attempt made';
  const steps: AttemptTrace['step'][] = ['first', 'reasoning-off', 'json-only'];
  let structured = opts.structuredOutput !== false;

  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    opts.deadline.checkCaller();
    if (opts.deadline.timedOut) return { ok: false, problem: `timed out after ${opts.deadline.timeoutMs} ms`, timedOut: true, attempts };
    const reasoning: ReasoningMode = step === 'first' ? opts.reasoning : 'off';
    const messages =
      step === 'json-only'
        ? [
            ...opts.messages,
            ...(lastContent.trim() !== '' ? [{ role: 'assistant' as const, content: lastContent.slice(0, 4000) }] : []),
            { role: 'user' as const, content: opts.jsonOnlyReminder },
          ]
        : opts.messages;

    let reply: ChatReply;
    try {
      reply = await raceAbort(
        opts.complete.complete({
          messages,
          temperature: 0,
          max_tokens: opts.maxTokens,
          reasoning,
          ...(structured ? { json_schema: opts.jsonSchema } : {}),
          signal: opts.deadline.signal,
        }),
        opts.deadline.signal,
      );
    } catch (error) {
      opts.deadline.checkCaller();
      problem = opts.deadline.timedOut
        ? `timed out after ${opts.deadline.timeoutMs} ms`
        : `judge call failed: ${describeError(error)}`;
      attempts.push({ step, reasoning, content: null, finish_reason: null, model: null, problem, structured });
      if (opts.deadline.timedOut) return { ok: false, problem, timedOut: true, attempts };
      if (structured && isRequestRejected(error)) {
        // The endpoint may not support response_format: the same step once more without it, and none after.
        structured = false;
        i -= 1;
      }
      continue;
    }

    const content = typeof reply.content === 'string' ? reply.content : '';
    lastContent = content;
    const parsed = extractJson(content, opts.schema, opts.quoted);
    const trace: AttemptTrace = {
      step,
      reasoning,
      content: content.slice(0, 2000),
      finish_reason: reply.finish_reason ?? null,
      model: reply.model ?? null,
      problem: null,
      structured,
    };
    if (parsed.ok) {
      attempts.push(trace);
      return { ok: true, value: parsed.value, attempts };
    }
    problem = `${parsed.problem}${reply.finish_reason === 'length' ? ' (finish=length)' : ''}${
      content.trim() === '' && (reply.reasoning ?? '').trim() !== '' ? ' (reasoning only)' : ''
    }`;
    trace.problem = problem;
    attempts.push(trace);
  }
  return { ok: false, problem: `no usable verdict after ${attempts.length} attempts: ${problem}`, timedOut: false, attempts };
}
