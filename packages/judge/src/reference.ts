import type { JudgeIdentity, JudgeRecord, RandomSource, ReasoningMode } from '@crucibleforge/core';
import { z } from 'zod';
import { askForJson, Deadline, type AttemptTrace } from './ask';
import { completerFrom, type JudgeCompleter } from './completer';
import { requireInt, requireText, invalidInput } from './errors';
import { BORDERLINE_MARKER, JUDGE_PROMPT_VERSION, referencePrompt } from './prompts';

/** The judge model as the caller knows it; the prompt version is always this package's. */
export interface JudgeModelRef {
  model: string;
  endpoint: string;
}

export interface ReferenceJudgeInput {
  question: string;
  /** The correct answer, by definition. */
  reference: string;
  /** Required facts: exactly what the question asks for; a correct answer states or clearly implies each one. */
  facts?: readonly string[];
  /** Grading guidance from the case author (e.g. a prose case's `grader.focus`); shown to the judge outside the fence. */
  focus?: string;
  /** The candidate answer (the model's final content). */
  answer: string;
  /** Only echoed into the trace, for logs. */
  caseId?: string;
}

/** Settings shared by every call that asks the judge model something. */
export interface JudgeCallOptions {
  /** The chat call: a `ChatCompleter` or a plain `(request) => Promise<ChatReply>`; anything else is JUDGE_INVALID_INPUT. */
  complete: JudgeCompleter;
  identity: JudgeModelRef;
  /** Salts the fence tokens (a new salt per sample); default Math.random. */
  random?: RandomSource;
  /** Aborting rejects with JUDGE_ABORTED. */
  signal?: AbortSignal;
  /** Wall-clock ceiling for the whole judgement, all samples and retries together; expiry is a judge-error. */
  timeoutMs?: number;
  /** max_tokens per judge call (default 4096). */
  maxTokens?: number;
  /** Reasoning mode of the first attempt of each sample (default 'auto'; retries always use 'off'). */
  reasoning?: ReasoningMode;
  /** Longer candidate texts keep head 70 % + tail 30 % of this many characters (default 24 000). */
  maxAnswerChars?: number;
  /**
   * Ask for structured output (json_schema / response_format; default true). Whatever this says, an
   * attempt the endpoint rejects with HTTP 400/415/422 while carrying json_schema is retried once without it.
   */
  structuredOutput?: boolean;
  /** Wall clock for `judged_at` (default `() => new Date()`). */
  now?: () => Date;
}

export interface ReferenceJudgeOptions extends JudgeCallOptions {
  /** Verdicts to draw for every answer (default 1, at most 15). */
  samples?: number;
  /** Total verdicts to draw when the call is close (default 3; 0 or 1 turns the extension off). */
  closeCallSamples?: number;
  /** Receives the full per-sample, per-attempt trace (raw replies, finish reasons, problems). */
  onTrace?: (trace: JudgeTrace) => void;
}

export interface SampleTrace {
  /** null: this sample gave no usable verdict. */
  correct: boolean | null;
  note: string;
  problem: string | null;
  attempts: AttemptTrace[];
}

export interface JudgeTrace {
  case_id: string | null;
  close_call: boolean;
  samples: SampleTrace[];
}

const verdictSchema = z.object({ correct: z.boolean(), note: z.string().optional() });
const VERDICT_JSON_SCHEMA = {
  name: 'reference_verdict',
  schema: {
    type: 'object',
    properties: { correct: { type: 'boolean' }, note: { type: 'string', maxLength: 300 } },
    required: ['correct', 'note'],
    additionalProperties: false,
  },
};

const HEDGE = /\b(borderline|uncertain|unsure|not sure|ambiguous|arguabl[ey]|partially (correct|right)|close call)\b/i;

/**
 * A close call, which earns extra samples: the first usable verdict's note starts with the borderline
 * marker the prompt asks for or contains a hedging phrase (uncertain, unsure, not sure, ambiguous,
 * arguably, partially correct/right, close call); or, after the planned samples, the usable verdicts
 * disagree.
 */
export function isCloseCallNote(note: string): boolean {
  return note.trim().toLowerCase().startsWith(BORDERLINE_MARKER) || HEDGE.test(note);
}

/** The identity recorded with every reference verdict. */
export function referenceJudgeIdentity(ref: JudgeModelRef): JudgeIdentity {
  return { model: ref.model, endpoint: ref.endpoint, prompt_version: JUDGE_PROMPT_VERSION };
}

export function checkModelRef(ref: JudgeModelRef | undefined): void {
  if (ref === null || typeof ref !== 'object') throw invalidInput('identity', 'expected { model, endpoint }');
  requireText('identity.model', ref.model);
  requireText('identity.endpoint', ref.endpoint);
}

export function saltFrom(random: RandomSource): string {
  return Math.floor(random() * 0x100000000).toString(16).padStart(8, '0');
}

const clip = (s: string) => (s.length > 400 ? `${s.slice(0, 399)}…` : s);

/**
 * Decides whether `answer` means the same as `reference`. Never throws for a judge that misbehaves:
 * that is a `judge-error` record (the row stays pending). Throws JUDGE_INVALID_INPUT for bad input and
 * JUDGE_ABORTED when `signal` fires. An empty (whitespace-only) answer is `incorrect` without a call.
 */
export async function judgeAgainstReference(input: ReferenceJudgeInput, options: ReferenceJudgeOptions): Promise<JudgeRecord> {
  if (input === null || typeof input !== 'object') throw invalidInput('input', 'expected { question, reference, answer }');
  const question = requireText('question', input.question);
  const reference = requireText('reference', input.reference);
  const answer = requireText('answer', input.answer, true);
  const facts = (input.facts ?? []).map((f, i) => requireText(`facts[${i}]`, f));
  const focus = input.focus === undefined ? undefined : requireText('focus', input.focus, true);
  checkModelRef(options?.identity);
  const complete = completerFrom(options.complete);
  const samples = requireInt('samples', options.samples, 1, 1, 15);
  const closeCallSamples = requireInt('closeCallSamples', options.closeCallSamples, 3, 0, 15);
  const maxTokens = requireInt('maxTokens', options.maxTokens, 4096, 1, 1_000_000);
  const maxAnswerChars = requireInt('maxAnswerChars', options.maxAnswerChars, 24_000, 200, 10_000_000);
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) throw invalidInput('timeoutMs', 'must be a positive number');
  const identity = referenceJudgeIdentity(options.identity);
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => new Date());
  const record = (verdict: JudgeRecord['verdict'], note: string, count: number, agreement: number): JudgeRecord => ({
    verdict,
    note: clip(note),
    identity,
    samples: count,
    agreement,
    judged_at: now().toISOString(),
  });

  if (answer.trim() === '') {
    options.onTrace?.({ case_id: input.caseId ?? null, close_call: false, samples: [] });
    return record('incorrect', 'empty answer (not sent to the judge)', 0, 1);
  }

  const deadline = new Deadline(options.signal, options.timeoutMs);
  const traces: SampleTrace[] = [];
  let closeCall = false;
  try {
    const drawOne = async (): Promise<boolean> => {
      const { messages, reminder } = referencePrompt({ question, reference, facts, ...(focus !== undefined ? { focus } : {}), answer, salt: saltFrom(random), maxAnswerChars });
      const asked = await askForJson({
        complete,
        messages,
        schema: verdictSchema,
        jsonSchema: VERDICT_JSON_SCHEMA,
        quoted: [answer],
        jsonOnlyReminder: reminder,
        reasoning: options.reasoning ?? 'auto',
        maxTokens,
        deadline,
        ...(options.structuredOutput === false ? { structuredOutput: false } : {}),
      });
      traces.push(
        asked.ok
          ? { correct: asked.value.correct, note: (asked.value.note ?? '').trim(), problem: null, attempts: asked.attempts }
          : { correct: null, note: '', problem: asked.problem, attempts: asked.attempts },
      );
      return !(!asked.ok && asked.timedOut);
    };
    const usable = () => traces.filter((t) => t.correct !== null);
    const split = () => {
      const yes = usable().filter((t) => t.correct === true).length;
      return { yes, no: usable().length - yes };
    };

    let target = samples;
    let alive = await drawOne();
    const first = usable()[0];
    if (first && isCloseCallNote(first.note)) {
      closeCall = true;
      target = Math.max(target, closeCallSamples);
    }
    while (alive && traces.length < target) alive = await drawOne();
    if (alive && split().yes > 0 && split().no > 0 && traces.length < closeCallSamples) {
      closeCall = true;
      while (alive && traces.length < closeCallSamples) alive = await drawOne();
    }
    if (alive && split().yes === split().no && split().yes > 0) alive = await drawOne(); // one tie-breaker

    const { yes, no } = split();
    const failed = traces.length - yes - no;
    const failedNote = failed > 0 ? ` (${failed} of ${traces.length} samples gave no verdict)` : '';
    if (yes + no === 0) {
      const last = traces[traces.length - 1];
      return record('judge-error', last?.problem ?? 'no verdict', 0, 0);
    }
    if (yes === no) return record('judge-error', `judge samples split evenly: ${yes} correct, ${no} incorrect`, yes + no, 0.5);
    const majority = yes > no;
    const lead = usable().find((t) => t.correct === majority);
    return record(majority ? 'correct' : 'incorrect', `${lead?.note ?? ''}${failedNote}`, yes + no, Math.max(yes, no) / (yes + no));
  } finally {
    deadline.dispose();
    options.onTrace?.({ case_id: input.caseId ?? null, close_call: closeCall, samples: traces });
  }
}
