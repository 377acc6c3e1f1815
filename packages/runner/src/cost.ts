import type { TokenUsage } from '@crucibleforge/core';
import type { Prices } from './config-schema';

const round = (usd: number) => Math.round(usd * 1e8) / 1e8;

/**
 * USD for one reply. A provider-reported cost (OpenRouter's `usage.cost`) wins; otherwise tokens × prices
 * per million: cached prompt tokens at `cached_input`, reasoning tokens (part of completion) at `reasoning`.
 * Null when the provider reports none and the model has no prices (a local model).
 */
export function costOfUsage(usage: TokenUsage, prices: Prices | null): number | null {
  if (usage.cost_usd !== null && Number.isFinite(usage.cost_usd)) return round(usage.cost_usd);
  if (!prices) return null;
  const prompt = usage.prompt_tokens ?? 0;
  const cached = Math.min(usage.cached_tokens ?? 0, prompt);
  const completion = usage.completion_tokens ?? 0;
  const reasoning = Math.min(usage.reasoning_tokens ?? 0, completion);
  const micro =
    (prompt - cached) * prices.input +
    cached * (prices.cached_input ?? prices.input) +
    (completion - reasoning) * prices.output +
    reasoning * (prices.reasoning ?? prices.output);
  return round(micro / 1e6);
}

const add = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));

/** Adds two usages (every attempt of a row is billed, the answer's timings are kept separately). */
export function sumUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    prompt_tokens: add(a.prompt_tokens, b.prompt_tokens),
    completion_tokens: add(a.completion_tokens, b.completion_tokens),
    reasoning_tokens: add(a.reasoning_tokens, b.reasoning_tokens),
    cached_tokens: add(a.cached_tokens, b.cached_tokens),
    cost_usd: add(a.cost_usd, b.cost_usd),
  };
}

export function addCost(a: number | null, b: number | null): number | null {
  return add(a, b);
}

/** One planned case of one model, as the estimate sees it. */
export interface EstimateItem {
  model: string;
  prices: Prices | null;
  /** Characters of everything sent (system, prompt, tool definitions). */
  prompt_chars: number;
  /** Tokens requested for the reply (after the reasoning factor). */
  max_tokens: number;
  /** Tokens a reasoning-off retry may spend (0 when no recovery can happen). */
  retry_max_tokens: number;
  /** Model turns (multi-step tool scripts call the model several times). */
  turns: number;
  /** Independent requests of the model's speed measurement instead of a case's turns (not counted as a case). */
  speed?: boolean;
}

export interface CostEstimate {
  /** Upper bound in USD over priced models; 0 when nothing is priced. */
  total_usd: number;
  per_model: { model: string; usd: number; cases: number; priced: boolean }[];
  /** True when at least one model has prices (the run will cost money). */
  priced: boolean;
}

/** Prompt tokens can't exceed about one per two characters for any common tokenizer; plus chat overhead. */
export function promptTokenBound(chars: number): number {
  return Math.ceil(chars / 2) + 32;
}

/** Worst case for one case: every turn sends the whole prompt plus all earlier output and uses its full budget. */
export function caseUpperBound(item: EstimateItem): number {
  if (!item.prices) return 0;
  const p = item.prices;
  const outPrice = Math.max(p.output, p.reasoning ?? 0);
  const prompt = promptTokenBound(item.prompt_chars);
  if (item.speed) return (item.turns * (prompt * p.input + item.max_tokens * outPrice)) / 1e6;
  let micro = 0;
  for (let turn = 0; turn < item.turns; turn++) {
    micro += (prompt + turn * item.max_tokens) * p.input + item.max_tokens * outPrice;
  }
  if (item.retry_max_tokens > 0) micro += prompt * p.input + item.retry_max_tokens * outPrice;
  return micro / 1e6;
}

/** The upper-bound cost of a planned run, shown (and asked about) before a priced run starts. */
export function estimateCost(items: EstimateItem[]): CostEstimate {
  const byModel = new Map<string, { usd: number; cases: number; priced: boolean }>();
  for (const item of items) {
    const entry = byModel.get(item.model) ?? { usd: 0, cases: 0, priced: item.prices !== null };
    entry.usd += caseUpperBound(item);
    if (!item.speed) entry.cases += 1;
    byModel.set(item.model, entry);
  }
  const per_model = [...byModel].map(([model, e]) => ({ model, usd: round(e.usd), cases: e.cases, priced: e.priced }));
  return {
    total_usd: round(per_model.reduce((s, m) => s + m.usd, 0)),
    per_model,
    priced: per_model.some((m) => m.priced),
  };
}

/**
 * Keeps a run under `--budget`: a case reserves its upper bound before it starts and settles at its real
 * cost, so concurrent cases can never push the total past the limit.
 */
export class BudgetLedger {
  #spent = 0;
  #reserved = 0;
  constructor(readonly limitUsd: number | null, alreadySpent = 0) {
    this.#spent = alreadySpent;
  }
  get spent(): number {
    return this.#spent;
  }
  /** False when starting a case that might cost `bound` could exceed the budget. */
  tryReserve(bound: number): boolean {
    if (this.limitUsd === null) {
      this.#reserved += bound;
      return true;
    }
    if (this.#spent + this.#reserved + bound > this.limitUsd + 1e-12) return false;
    this.#reserved += bound;
    return true;
  }
  settle(bound: number, actual: number | null): void {
    this.#reserved = Math.max(0, this.#reserved - bound);
    this.#spent += actual ?? 0;
  }
}
