import { latestAttempts, rowKey, type Category } from '@crucibleforge/core';
import { aggregatePairwise, checkJudgeIndependence, judgePair, pairwiseJudgeIdentity, type PairwiseGame } from '@crucibleforge/judge';
import type { PairwiseAggregate } from '@crucibleforge/judge';
import pLimit from 'p-limit';
import { worldFor } from './api';
import { apiKeyFor, resolveModel } from './config';
import { RunnerError } from './errors';
import type { ConfigInput } from './plan';
import { listRuns, loadRun } from './storage';
import type { RunRow } from './storage-types';
import type { RunWorld } from './world';

export interface PairwiseOptions {
  config: ConfigInput;
  env: Record<string, string | undefined>;
  resultsDir: string;
  /** Runs to draw answers from (default: every run; the latest answer per model and case wins). */
  runIds?: string[];
  /** At least two model labels. */
  models: string[];
  /** Default: judged (reference-answer) rows and the prose category. */
  categories?: Category[] | null;
  forceSelfJudge?: boolean;
  world?: RunWorld;
  signal?: AbortSignal;
  onEvent?: (event: { type: 'game'; a: string; b: string; case_id: string; result: string } | { type: 'notice'; message: string }) => void;
}

export interface PairwiseGameRecord extends PairwiseGame {
  case_id: string;
  seed: number | null;
}

export interface PairwiseResult {
  summary: PairwiseAggregate;
  games: PairwiseGameRecord[];
}

function eligible(row: RunRow, categories: Category[] | null): boolean {
  if (row.grade.status === 'skipped' || (row.grade.status === 'error' && row.error_class !== undefined)) return false;
  if (categories) return categories.includes(row.category);
  return row.judge_input !== undefined || row.category === 'prose';
}

/**
 * Compares models' answers to the same prompts, each pair judged in both orders (a disagreement between
 * orders is a tie), aggregated into win/tie/loss with intervals and Bradley–Terry ratings.
 */
export async function pairwiseRun(options: PairwiseOptions): Promise<PairwiseResult> {
  const labels = [...new Set(options.models)];
  if (labels.length < 2) throw new RunnerError('RUNNER_UNKNOWN_MODEL', 'pairwise needs at least two models (--models a,b)');
  if (!options.config.judge) throw new RunnerError('RUNNER_NO_JUDGE', 'pairwise needs a judge: block in models.yaml');
  const judge = resolveModel(options.config, options.config.judge.model);
  const ids = options.runIds ?? (await listRuns(options.resultsDir)).map((r) => r.run_id);
  const rows: RunRow[] = [];
  for (const id of ids) rows.push(...(await loadRun(options.resultsDir, id)).rows);
  const latest = new Map(
    latestAttempts(rows.filter((row) => labels.includes(row.model) && eligible(row, options.categories ?? null))).rows.map((row) => [rowKey(row), row] as const),
  );
  const modelIds = labels.map((l) => resolveModel(options.config, l).model.id);
  const check = checkJudgeIndependence(judge.model.id, modelIds, { force: options.forceSelfJudge ?? false });
  if (check.forced) options.onEvent?.({ type: 'notice', message: `forced: the judge ${judge.model.id} is also compared (${check.overlaps.join(', ')})` });

  const world = worldFor({ env: options.env, ...(options.world ? { world: options.world } : {}) });
  const client = world.clientFactory(judge, apiKeyFor(judge, options.env), { fetch: world.fetch, clock: world.clock });
  const ref = { model: judge.model.id, endpoint: judge.provider.base_url };
  const jobs: { a: RunRow; b: RunRow }[] = [];
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      for (const a of latest.values()) {
        if (a.model !== labels[i]) continue;
        const b = latest.get(rowKey({ model: labels[j]!, case_id: a.case_id, seed: a.seed }));
        if (b) jobs.push({ a, b });
      }
    }
  }
  if (jobs.length === 0) throw new RunnerError('RUNNER_UNKNOWN_RUN', `no case has answers from at least two of ${labels.join(', ')} in ${options.resultsDir}`);
  const games: PairwiseGameRecord[] = [];
  const limit = pLimit(judge.concurrency);
  await Promise.all(
    jobs.map(({ a, b }) =>
      limit(async () => {
        if (options.signal?.aborted) return;
        const question = a.judge_input?.question ?? a.messages.filter((m) => m.role === 'user').map((m) => m.content ?? '').join('\n\n');
        const outcome = await judgePair(
          { question, ...(a.judge_input ? { reference: a.judge_input.reference } : {}), answerA: a.content, answerB: b.content },
          { complete: client, identity: ref, random: world.random, now: world.now, ...(options.signal ? { signal: options.signal } : {}) },
        );
        games.push({ a: a.model, b: b.model, case_id: a.case_id, seed: a.seed, result: outcome.result, position_bias: outcome.position_bias });
        options.onEvent?.({ type: 'game', a: a.model, b: b.model, case_id: a.case_id, result: outcome.result });
      }),
    ),
  );
  games.sort((x, y) => `${x.a}${x.b}${x.case_id}`.localeCompare(`${y.a}${y.b}${y.case_id}`));
  return { summary: aggregatePairwise(games, labels, { judge: pairwiseJudgeIdentity(ref) }), games };
}
