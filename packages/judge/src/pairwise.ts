import type { JudgeIdentity } from '@crucibleforge/core';
import { z } from 'zod';
import { askForJson, Deadline, type AttemptTrace } from './ask';
import { completerFrom } from './completer';
import { invalidInput, requireInt, requireText } from './errors';
import { PAIRWISE_PROMPT_VERSION, pairPrompt } from './prompts';
import { checkModelRef, saltFrom, type JudgeCallOptions, type JudgeModelRef } from './reference';

export interface PairInput {
  question: string;
  /** When given, agreement with it dominates the comparison. */
  reference?: string;
  answerA: string;
  answerB: string;
}

/** A preference in terms of the caller's labels: answerA, answerB, or neither. */
export type Preference = 'A' | 'B' | 'tie';

/** What the judge said in one presentation order. */
export interface PairVerdict {
  /** The judge's answer in the caller's labels (already mapped back for the swapped order); null = no usable verdict. */
  winner: Preference | null;
  /** The judge's answer as it saw the slots (in the swapped order, slot A held answerB). */
  shown: Preference | null;
  note: string;
  problem: string | null;
  attempts: AttemptTrace[];
}

/**
 * One prompt judged in both orders. `result` is the preference when both orders agree; any other
 * combination of usable verdicts is a `tie` (`position_bias` is true when the two orders named
 * opposite winners, i.e. the judge followed the slot, not the answer). `judge-error` when either order
 * gave no usable verdict; such outcomes are skipped by aggregatePairwise.
 */
export interface PairOutcome {
  result: Preference | 'judge-error';
  position_bias: boolean;
  /** answerA shown as A, answerB as B */
  forward: PairVerdict;
  /** answerB shown as A, answerA as B */
  reversed: PairVerdict;
  identity: JudgeIdentity;
  judged_at: string;
}

const pairSchema = z.object({ winner: z.enum(['A', 'B', 'tie']), note: z.string().optional() });
const PAIR_JSON_SCHEMA = {
  name: 'pairwise_verdict',
  schema: {
    type: 'object',
    properties: { winner: { type: 'string', enum: ['A', 'B', 'tie'] }, note: { type: 'string', maxLength: 300 } },
    required: ['winner', 'note'],
    additionalProperties: false,
  },
};

/** The identity recorded with every pairwise outcome and summary. */
export function pairwiseJudgeIdentity(ref: JudgeModelRef): JudgeIdentity {
  return { model: ref.model, endpoint: ref.endpoint, prompt_version: PAIRWISE_PROMPT_VERSION };
}

const swap = (p: Preference | null): Preference | null => (p === 'A' ? 'B' : p === 'B' ? 'A' : p);

/** Combines the two orders: agreement wins, any disagreement is a tie, a missing verdict is an error. */
export function combineOrders(forward: Preference | null, reversed: Preference | null): { result: PairOutcome['result']; position_bias: boolean } {
  if (forward === null || reversed === null) return { result: 'judge-error', position_bias: false };
  if (forward === reversed) return { result: forward, position_bias: false };
  return { result: 'tie', position_bias: forward !== 'tie' && reversed !== 'tie' };
}

/**
 * Judges two answers to the same prompt twice, A/B then B/A, to cancel position bias. One sample per
 * order; the retry ladder of judgeAgainstReference applies to each. Throws only for bad input
 * (JUDGE_INVALID_INPUT) or the caller's abort (JUDGE_ABORTED).
 */
export async function judgePair(input: PairInput, options: JudgeCallOptions): Promise<PairOutcome> {
  if (input === null || typeof input !== 'object') throw invalidInput('input', 'expected { question, answerA, answerB }');
  const question = requireText('question', input.question);
  const reference = input.reference === undefined ? undefined : requireText('reference', input.reference);
  const answerA = requireText('answerA', input.answerA, true);
  const answerB = requireText('answerB', input.answerB, true);
  checkModelRef(options?.identity);
  const complete = completerFrom(options.complete);
  const maxTokens = requireInt('maxTokens', options.maxTokens, 4096, 1, 1_000_000);
  const maxAnswerChars = requireInt('maxAnswerChars', options.maxAnswerChars, 24_000, 200, 10_000_000);
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) throw invalidInput('timeoutMs', 'must be a positive number');
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => new Date());
  const deadline = new Deadline(options.signal, options.timeoutMs);

  const ask = async (first: string, second: string, swapped: boolean): Promise<PairVerdict> => {
    const { messages, reminder } = pairPrompt({ question, reference, first, second, salt: saltFrom(random), maxAnswerChars });
    const asked = await askForJson({
      complete,
      messages,
      schema: pairSchema,
      jsonSchema: PAIR_JSON_SCHEMA,
      quoted: [answerA, answerB],
      jsonOnlyReminder: reminder,
      reasoning: options.reasoning ?? 'auto',
      maxTokens,
      ...(options.structuredOutput === false ? { structuredOutput: false } : {}),
      deadline,
    });
    if (!asked.ok) return { winner: null, shown: null, note: '', problem: asked.problem, attempts: asked.attempts };
    const shown = asked.value.winner;
    return { winner: swapped ? swap(shown) : shown, shown, note: (asked.value.note ?? '').trim(), problem: null, attempts: asked.attempts };
  };

  try {
    const forward = await ask(answerA, answerB, false);
    const reversed = await ask(answerB, answerA, true);
    return {
      ...combineOrders(forward.winner, reversed.winner),
      forward,
      reversed,
      identity: pairwiseJudgeIdentity(options.identity),
      judged_at: now().toISOString(),
    };
  } finally {
    deadline.dispose();
  }
}
