import { wilsonInterval, type JudgeIdentity, type PairwiseSummary } from '@crucibleforge/core';
import { invalidInput } from './errors';
import type { PairOutcome } from './pairwise';

/** One judged prompt between model `a` (the pair's answerA) and model `b` (answerB). */
export interface PairwiseGame {
  a: string;
  b: string;
  /** From PairOutcome.result: 'A' = a won. `judge-error` games are skipped. */
  result: PairOutcome['result'];
  /** From PairOutcome.position_bias: only counted. */
  position_bias?: boolean;
}

/** core's PairwiseSummary plus the counts a report should show next to it. */
export interface PairwiseAggregate extends PairwiseSummary {
  /** Games that entered the tallies (judge errors excluded). */
  games: number;
  /** Games skipped because either order gave no verdict. */
  judge_errors: number;
  /** Ties that came from the two orders naming opposite winners. */
  position_bias_ties: number;
}

export interface AggregateOptions {
  /** Recorded in the summary (use pairwiseJudgeIdentity). */
  judge?: JudgeIdentity | null;
  /** Virtual games per pair of models, split as half a win each way (default 1). */
  prior?: number;
}

/**
 * Bradley–Terry strengths by the MM algorithm (Hunter 2004): p_i ← W_i / Σ_j n_ij / (p_i + p_j), where
 * W_i counts wins with ties as half-wins. `wins[i][j]` = wins of i over j (fractional allowed). A prior
 * of `prior` virtual games on EVERY pair (half a win each way) keeps every strength finite and the
 * comparison graph connected, even for a model that won or lost everything. Strengths are normalised
 * to geometric mean 1. Iterates to a relative change below 1e-12 (at most 100 000 rounds).
 */
export function bradleyTerry(wins: readonly (readonly number[])[], prior = 1): number[] {
  const k = wins.length;
  if (k === 0) return [];
  if (!(prior > 0)) throw invalidInput('prior', 'must be a positive number');
  const w = (i: number, j: number) => (i === j ? 0 : (wins[i]?.[j] ?? 0) + prior / 2);
  const games = (i: number, j: number) => (i === j ? 0 : w(i, j) + w(j, i));
  const total = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => w(i, j)).reduce((s, x) => s + x, 0));
  let p = new Array<number>(k).fill(1);
  for (let round = 0; round < 100_000; round++) {
    const next = p.map((pi, i) => {
      let denom = 0;
      for (let j = 0; j < k; j++) if (j !== i) denom += games(i, j) / (pi + (p[j] as number));
      return (total[i] as number) / denom;
    });
    const logMean = next.reduce((s, x) => s + Math.log(x), 0) / k;
    const normalised = next.map((x) => x / Math.exp(logMean));
    const change = Math.max(...normalised.map((x, i) => Math.abs(x - (p[i] as number)) / (p[i] as number)));
    p = normalised;
    if (change < 1e-12) break;
  }
  return p;
}

/** Elo-like scale: 1000 + 400·log10(strength); the geometric-mean model sits at 1000. */
export function eloFromStrength(strength: number): number {
  return 1000 + 400 * Math.log10(strength);
}

/**
 * Pure aggregation of pairwise games. Pairs are listed for each two models of `models` (in that order,
 * a before b) that played at least one game. win/tie/loss are from a's side; win_rate =
 * (wins + ties/2) / games with a 95 % Wilson interval on that same count; ratings are Bradley–Terry
 * strengths (ties as half-wins, `prior` virtual games per pair) on the Elo-like scale, highest first.
 * judge-error games are skipped (and counted). Throws JUDGE_INVALID_INPUT for a game naming a model not in `models`,
 * a model playing itself, or duplicate model names.
 */
export function aggregatePairwise(outcomes: readonly PairwiseGame[], models: readonly string[], options: AggregateOptions = {}): PairwiseAggregate {
  const index = new Map<string, number>();
  models.forEach((m, i) => {
    if (typeof m !== 'string' || m === '') throw invalidInput(`models[${i}]`, 'expected a model name');
    if (index.has(m)) throw invalidInput(`models[${i}]`, `duplicate model ${m}`);
    index.set(m, i);
  });
  const k = models.length;
  const wins = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const count = Array.from({ length: k }, () => Array.from({ length: k }, () => ({ w: 0, t: 0, l: 0 })));

  let played = 0;
  let judgeErrors = 0;
  let biasTies = 0;
  outcomes.forEach((game, g) => {
    const i = index.get(game.a);
    const j = index.get(game.b);
    if (i === undefined) throw invalidInput(`outcomes[${g}].a`, `model ${game.a} is not in models`);
    if (j === undefined) throw invalidInput(`outcomes[${g}].b`, `model ${game.b} is not in models`);
    if (i === j) throw invalidInput(`outcomes[${g}]`, `model ${game.a} cannot play itself`);
    const score = game.result === 'A' ? 1 : game.result === 'B' ? 0 : game.result === 'tie' ? 0.5 : null;
    if (game.result !== 'judge-error' && score === null) {
      throw invalidInput(`outcomes[${g}].result`, `expected A, B, tie or judge-error, got ${String(game.result)}`);
    }
    if (score === null) {
      judgeErrors++;
      return;
    }
    played++;
    if (game.result === 'tie' && game.position_bias === true) biasTies++;
    const ab = count[i]![j]!;
    const ba = count[j]![i]!;
    if (score === 1) {
      ab.w++;
      ba.l++;
    } else if (score === 0) {
      ab.l++;
      ba.w++;
    } else {
      ab.t++;
      ba.t++;
    }
    wins[i]![j]! += score;
    wins[j]![i]! += 1 - score;
  });

  const pairs: PairwiseSummary['pairs'] = [];
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const { w, t, l } = count[i]![j]!;
      const n = w + t + l;
      if (n === 0) continue;
      pairs.push({ a: models[i]!, b: models[j]!, wins: w, ties: t, losses: l, win_rate: (w + t / 2) / n, ci95: wilsonInterval(w + t / 2, n) });
    }
  }
  const strengths = bradleyTerry(wins, options.prior ?? 1);
  const ratings = models
    .map((model, i) => ({ model, rating: eloFromStrength(strengths[i] as number) }))
    .sort((x, y) => y.rating - x.rating);
  return {
    models: [...models],
    pairs,
    ratings,
    judge: options.judge ?? null,
    games: played,
    judge_errors: judgeErrors,
    position_bias_ties: biasTies,
  };
}
