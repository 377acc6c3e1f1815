import type { ResultRow } from '@crucibleforge/core';
import type { SpeedReport } from '@crucibleforge/speed';

/** One named part of an agent-fitness case (Task Acknowledgment, Format Adherence, Conciseness). */
export interface BenchPart {
  name: string;
  pass: boolean;
  reason: string;
}

/** The parts an agent grader reported in a row's grade details, or null for a row without parts. */
export function benchParts(row: Pick<ResultRow, 'grade'>): BenchPart[] | null {
  const parts = row.grade.details?.['parts'];
  return Array.isArray(parts) ? (parts as BenchPart[]) : null;
}

export interface BenchScores {
  ability: number;
  abilityTotal: number;
  agent: number;
  agentTotal: number;
}

/** Ability: one point per passed test (every row outside `agent`). Agent fitness: one point per passed part of each agent test. */
export function benchScores(rows: readonly Pick<ResultRow, 'category' | 'grade' | 'title' | 'case_id'>[]): BenchScores {
  const ability = rows.filter((r) => r.category !== 'agent');
  const parts = rows
    .filter((r) => r.category === 'agent')
    .flatMap((r) => benchParts(r) ?? [{ name: r.title ?? r.case_id, pass: r.grade.status === 'pass', reason: r.grade.reason }]);
  return {
    ability: ability.filter((r) => r.grade.status === 'pass').length,
    abilityTotal: ability.length,
    agent: parts.filter((p) => p.pass).length,
    agentTotal: parts.length,
  };
}

/** bench-llm's results file: the run it made, every row (prompt, reply, reasoning, timings, grade), the speed report and the scores. */
export interface BenchResults<Row extends ResultRow = ResultRow> {
  schema_version: 2;
  kind: 'bench-llm';
  tool_version: string;
  model: string;
  base_url: string;
  started_at: string;
  finished_at: string;
  settings: { quick: boolean; speed_only: boolean; cases_dir: string | null; profile: string; seed: number; sandboxed: boolean | null };
  /** The durable run the tests went through (`crucibleforge report --run` reads it); null for --speed-only. */
  run: { run_id: string; dir: string } | null;
  /** The speed benchmark's report (what `crucibleforge speed --json` writes): every run with its timings. */
  speed: SpeedReport | null;
  /** The runner's rows of the tests, in the order they ran. */
  rows: Row[];
  summary: {
    ability_score: number | null;
    ability_total: number;
    agent_fitness_score: number | null;
    agent_fitness_total: number;
    /** True when the model streamed a reasoning channel (then TTFT of reasoning and of the answer differ). */
    reasoning_model: boolean;
    speed: { name: string; decode_tps_mean: number | null; ttft_mean_s: number | null; median: SpeedReport['tests'][number]['median'] }[];
    plausibility: { confidence: string; reasons: string[] } | null;
    failed: { id: string; status: string; reason: string }[];
  };
}

/** Assembles the results file (pure): the scores, the speed figures and the failed tests from the rows and the speed report. */
export function benchResults<Row extends ResultRow>(input: Omit<BenchResults<Row>, 'schema_version' | 'kind' | 'summary'>): BenchResults<Row> {
  const s = benchScores(input.rows);
  const speedOnly = input.settings.speed_only;
  const reasoning = (input.speed?.tests ?? []).some((t) => t.median.ttft_reasoning_s !== null) || input.rows.some((r) => r.reasoning.trim() !== '');
  return {
    schema_version: 2,
    kind: 'bench-llm',
    ...input,
    summary: {
      ability_score: speedOnly ? null : s.ability,
      ability_total: s.abilityTotal,
      agent_fitness_score: speedOnly ? null : s.agent,
      agent_fitness_total: s.agentTotal,
      reasoning_model: reasoning,
      speed: (input.speed?.tests ?? []).map((t) => ({ name: t.name, decode_tps_mean: t.stats.decode_tps.mean, ttft_mean_s: t.stats.ttft_s.mean, median: t.median })),
      plausibility: input.speed ? { confidence: input.speed.plausibility.confidence, reasons: input.speed.plausibility.reasons } : null,
      failed: input.rows.filter((r) => r.grade.status !== 'pass').map((r) => ({ id: r.case_id, status: r.grade.status, reason: r.grade.reason })),
    },
  };
}
