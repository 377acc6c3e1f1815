import type { LoadedCase } from './schema/case';
import type { Category } from '@crucibleforge/core';
import { placeholders } from './template';

/**
 * The assumptions of a run-time estimate from token budgets (a profile's "under an hour for a 27B model").
 * Every figure is a worst case the model may stay under: each case spends its whole `max_tokens`.
 */
export interface RunRates {
  /** Generated tokens per second (decode). */
  decode_tps: number;
  /** Prompt tokens per second (prefill); every assistant turn re-reads the whole prompt (no cache assumed). */
  prefill_tps: number;
  /** Tokens an intermediate assistant turn (tool calls, earlier turns) spends besides the final answer. */
  turn_tokens: number;
  /** A judged case's judge call: its instructions (tokens) besides question, reference, facts and answer. */
  judge_overhead_tokens: number;
  /** …and what the judge writes (reasoning plus the verdict JSON). */
  judge_output_tokens: number;
  /** Prompt tokens counted for each `{{placeholder}}` filled by a derive program (unknown until run). */
  placeholder_tokens: number;
}

/** 27B model at ~70 tokens/s decode and ~1,000 tokens/s prefill, one judge call per judged case. */
export const DEFAULT_RUN_RATES: RunRates = {
  decode_tps: 70,
  prefill_tps: 1000,
  turn_tokens: 256,
  judge_overhead_tokens: 600,
  judge_output_tokens: 1024,
  placeholder_tokens: 200,
};

export interface CaseEstimate {
  id: string;
  /** Prompt tokens of one request (characters / 4, haystack at its target size). */
  prompt_tokens: number;
  assistant_turns: number;
  max_tokens: number;
  generate_s: number;
  prefill_s: number;
  judge_s: number;
  total_s: number;
}

export interface RunEstimate {
  cases: number;
  generate_s: number;
  prefill_s: number;
  judge_s: number;
  total_s: number;
  per_case: CaseEstimate[];
}

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/**
 * One case's worst-case seconds, from its definition alone (no sandbox): generation = (max_tokens +
 * turn_tokens × (assistant turns − 1)) ÷ decode; prefill = prompt × assistant turns ÷ prefill; judged cases
 * add one judge call = (overhead + prompt + reference + facts + max_tokens) ÷ prefill + judge output ÷ decode.
 * `maxTokens` is a profile's per-category override (the runner uses it instead of the case's).
 */
export function estimateCase(c: LoadedCase, rates: RunRates = DEFAULT_RUN_RATES, maxTokens?: number): CaseEstimate {
  const d = c.def;
  const texts = [d.system ?? '', d.prompt ?? '', ...(d.turns ?? []), d.tools ? JSON.stringify(d.tools) : ''];
  const derived = d.derive ? new Set(texts.flatMap(placeholders).filter((p) => p !== 'haystack')).size : 0;
  const promptTokens = tokensOf(texts.join('\n')) + (d.haystack?.tokens ?? 0) + derived * rates.placeholder_tokens;
  const turns = (d.turns?.length ?? 1) + (d.reference.calls?.length ?? 0);
  const budget = maxTokens ?? d.max_tokens;
  const generateS = (budget + rates.turn_tokens * (turns - 1)) / rates.decode_tps;
  const prefillS = (promptTokens * turns) / rates.prefill_tps;
  let judgeS = 0;
  if (d.grader.type === 'judge') {
    const reference = tokensOf(typeof d.reference.answer === 'string' ? d.reference.answer : '') + tokensOf((d.reference.facts ?? []).join('\n'));
    judgeS = (rates.judge_overhead_tokens + promptTokens + reference + budget) / rates.prefill_tps + rates.judge_output_tokens / rates.decode_tps;
  }
  return { id: d.id, prompt_tokens: promptTokens, assistant_turns: turns, max_tokens: budget, generate_s: generateS, prefill_s: prefillS, judge_s: judgeS, total_s: generateS + prefillS + judgeS };
}

/** The worst-case run time of a selection (e.g. a profile's cases), honouring the profile's max_tokens overrides. */
export function estimateRun(cases: LoadedCase[], rates: RunRates = DEFAULT_RUN_RATES, profile?: { max_tokens?: Partial<Record<Category, number>> | undefined }): RunEstimate {
  const perCase = cases.map((c) => estimateCase(c, rates, profile?.max_tokens?.[c.def.category]));
  const sum = (k: 'generate_s' | 'prefill_s' | 'judge_s' | 'total_s') => perCase.reduce((a, e) => a + e[k], 0);
  return { cases: cases.length, generate_s: sum('generate_s'), prefill_s: sum('prefill_s'), judge_s: sum('judge_s'), total_s: sum('total_s'), per_case: perCase };
}
