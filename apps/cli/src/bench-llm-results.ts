/** bench-llm's results file: where it goes and what it holds (every raw timing, every response, the summary). */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { ModelInfo, SpeedReport } from '@crucibleforge/timing';
import type { TestResult } from './bench-llm-ability';
import { scores } from './bench-llm-render';

export const RESULTS_SCHEMA_VERSION = 1;

/** A model id as a file name: path separators and other awkward characters become `_`. */
export function fileSafe(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'model';
}

/** The local calendar date, YYYY-MM-DD. */
export function localDate(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** `--out FILE.json`, else `--out DIR/<model>-<date>.json`, else `~/benchmarks/<model>-<date>.json` (cwd when HOME is unset). */
export function resultsPath(o: { out?: string | undefined; cwd: string; home: string | undefined; model: string; date: Date }): string {
  if (o.out?.endsWith('.json')) return resolve(o.cwd, o.out);
  const dir = o.out ? resolve(o.cwd, o.out) : join(o.home ?? o.cwd, 'benchmarks');
  return join(dir, `${fileSafe(o.model)}-${localDate(o.date)}.json`);
}

/** `~/…` for paths under the home directory. */
export function shortPath(path: string, home: string | undefined): string {
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

export interface BenchLlmResults {
  schema_version: number;
  kind: 'bench-llm';
  tool_version: string;
  model: string;
  base_url: string;
  started_at: string;
  finished_at: string;
  settings: { quick: boolean; speed_only: boolean; cases_dir: string | null; profile: string; seed: number; sandboxed: boolean | null };
  endpoint: { model: ModelInfo | null; sources: string[] };
  /** The speed benchmark's report: every run (warm-ups included) with its per-request timings. */
  speed: SpeedReport | null;
  /** Every request of every test: the full response (content, reasoning, tool calls) and its timings. */
  ability: TestResult[];
  agent: TestResult[];
  summary: {
    ability_score: number | null;
    ability_total: number;
    agent_fitness_score: number | null;
    agent_fitness_total: number;
    /** True when the model streamed a reasoning channel (then TTFT of reasoning and of the answer differ). */
    reasoning_model: boolean;
    speed: {
      name: string;
      decode_tps_mean: number | null;
      ttft_mean_s: number | null;
      median: SpeedReport['tests'][number]['median'];
    }[];
    plausibility: { confidence: string; reasons: string[] } | null;
    failed: { id: string; status: string; reason: string }[];
  };
}

export function buildResults(input: Omit<BenchLlmResults, 'schema_version' | 'kind' | 'summary'>): BenchLlmResults {
  const s = scores(input.ability, input.agent);
  const all = [...input.ability, ...input.agent];
  const reasoningSeen =
    (input.speed?.tests ?? []).some((t) => t.median.ttft_reasoning_s !== null) ||
    all.some((t) => t.requests.some((r) => r.response.reasoning.trim() !== ''));
  return {
    schema_version: RESULTS_SCHEMA_VERSION,
    kind: 'bench-llm',
    ...input,
    summary: {
      ability_score: input.settings.speed_only ? null : s.ability,
      ability_total: s.abilityTotal,
      agent_fitness_score: input.settings.speed_only ? null : s.agent,
      agent_fitness_total: s.agentTotal,
      reasoning_model: reasoningSeen,
      speed: (input.speed?.tests ?? []).map((t) => ({ name: t.name, decode_tps_mean: t.stats.decode_tps.mean, ttft_mean_s: t.stats.ttft_s.mean, median: t.median })),
      plausibility: input.speed ? { confidence: input.speed.plausibility.confidence, reasons: input.speed.plausibility.reasons } : null,
      failed: all.filter((t) => t.status !== 'pass').map((t) => ({ id: t.id, status: t.status, reason: t.reason })),
    },
  };
}

export async function writeResults(path: string, results: BenchLlmResults): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(results, null, 2)}\n`);
}
