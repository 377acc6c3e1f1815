import { CATEGORIES, median, type JudgeIdentity, type ResultRow, type SpeedSummary } from '@crucibleforge/core';
import { analyseComparability, compareVersions, graderVersionOf, judgeKey } from './comparability';
import { ReportError } from './errors';
import { DEFAULT_MAX_DETAIL_CHARS, failureEntry } from './failures';
import { compareAll, pairwiseReport } from './paired';
import { rateCell, rowCost } from './rates';
import { selectLatest } from './select';
import { modelStatus } from './status';
import {
  REPORT_SCHEMA_VERSION,
  type BuildReportInput,
  type FailureEntry,
  type ModelSummary,
  type ReportData,
  type RunInfo,
  type SpeedCell,
} from './types';

function checkInput(input: BuildReportInput): void {
  if (typeof input !== 'object' || input === null) {
    throw new ReportError('REPORT_INVALID_INPUT', 'buildReport: expected an options object');
  }
  if (!Array.isArray(input.rows)) throw new ReportError('REPORT_INVALID_INPUT', 'buildReport: field rows must be an array');
  if (typeof input.generatedAt !== 'string' || Number.isNaN(Date.parse(input.generatedAt))) {
    throw new ReportError(
      'REPORT_INVALID_INPUT',
      `buildReport: field generatedAt must be an ISO timestamp, got ${JSON.stringify(input.generatedAt)}`,
    );
  }
  if (typeof input.toolVersion !== 'string' || input.toolVersion.trim() === '') {
    throw new ReportError('REPORT_INVALID_INPUT', 'buildReport: field toolVersion must be a non-empty string');
  }
  const max = input.maxDetailChars;
  if (max !== undefined && (!Number.isInteger(max) || max < 1)) {
    throw new ReportError('REPORT_INVALID_INPUT', `buildReport: field maxDetailChars must be a positive integer, got ${max}`);
  }
}

/** Every model of the runs and the rows: a model that was stopped before any row is still in the report. */
function allModels(rows: readonly ResultRow[], input: BuildReportInput): string[] {
  return [...new Set([...(input.manifests ?? []).flatMap((m) => m.models.map((x) => x.label)), ...rows.map((r) => r.model)])];
}

function filterModels(rows: readonly ResultRow[], wanted: readonly string[] | undefined, input: BuildReportInput): readonly ResultRow[] {
  if (wanted === undefined) return rows;
  const known = new Set(allModels(rows, input));
  const unknown = wanted.filter((m) => !known.has(m));
  if (unknown.length > 0) {
    throw new ReportError(
      'REPORT_INVALID_INPUT',
      `buildReport: field models names ${unknown.map((m) => JSON.stringify(m)).join(', ')} in no run and no result row ` +
        `(models: ${[...known].sort().join(', ') || 'none'})`,
      { details: { unknown } },
    );
  }
  const keep = new Set(wanted);
  return rows.filter((r) => keep.has(r.model));
}

/** Categories in `CATEGORIES` order, then any others alphabetically. */
export function orderCategories(present: Iterable<string>): string[] {
  const set = new Set(present);
  const known = CATEGORIES.filter((c) => set.has(c));
  const others = [...set].filter((c) => !(CATEGORIES as readonly string[]).includes(c)).sort();
  return [...known, ...others];
}

function speedCell(model: string, rows: readonly ResultRow[], speed: readonly SpeedSummary[]): SpeedCell | null {
  const run = speed.find((s) => s.model === model);
  if (run !== undefined) {
    return {
      decode_tps: run.decode_tps,
      ttft_s: run.ttft_s,
      prefill_tps: run.prefill_tps,
      source: 'speed-run',
      plausibility: run.plausibility ?? null,
    };
  }
  const decode = median(rows.map((r) => r.timings?.decode_tps));
  const ttft = median(rows.map((r) => r.timings?.ttft_s));
  if (decode === null && ttft === null) return null;
  return { decode_tps: decode, ttft_s: ttft, prefill_tps: null, source: 'bench-rows', plausibility: null };
}

function judgesOf(rows: readonly ResultRow[]): JudgeIdentity[] {
  const counts = new Map<string, { identity: JudgeIdentity; n: number }>();
  for (const row of rows) {
    if (row.judge === undefined) continue;
    const key = judgeKey(row.judge.identity);
    const entry = counts.get(key) ?? { identity: row.judge.identity, n: 0 };
    entry.n += 1;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.n - a.n).map((e) => e.identity);
}

function costOf(rows: readonly ResultRow[]): number | null {
  let total: number | null = null;
  for (const row of rows) {
    const cost = rowCost(row);
    if (cost !== null) total = (total ?? 0) + cost;
  }
  return total === null ? null : Math.round(total * 1e9) / 1e9;
}

function graderVersionsOf(rows: readonly ResultRow[]): { version: string; rows: number }[] {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(graderVersionOf(row), (counts.get(graderVersionOf(row)) ?? 0) + 1);
  return [...counts].map(([version, n]) => ({ version, rows: n })).sort((a, b) => b.rows - a.rows || compareVersions(b.version, a.version));
}

function summarise(
  model: string,
  rows: readonly ResultRow[],
  categories: readonly string[],
  input: BuildReportInput,
  notes: readonly string[],
): ModelSummary {
  const newest: Partial<ResultRow> = rows.length === 0 ? {} : rows.reduce((a, b) => (Date.parse(b.finished_at) > Date.parse(a.finished_at) ? b : a));
  const manifest = [...(input.manifests ?? [])].reverse().find((m) => m.models.some((x) => x.label === model));
  const listed = manifest?.models.find((x) => x.label === model);
  const byCategory: Record<string, ReturnType<typeof rateCell>> = {};
  for (const category of categories) {
    const inCategory = rows.filter((r) => r.category === category);
    if (inCategory.length > 0) byCategory[category] = rateCell(inCategory);
  }
  const overflowed = rows.filter((r) => r.overflow?.happened === true);
  const recovered = overflowed.filter((r) => r.overflow?.recovered === true).length;
  return {
    rank: 0,
    model,
    model_id: newest.model_id ?? listed?.model_id ?? null,
    provider: newest.provider ?? listed?.provider ?? null,
    overall: rateCell(rows),
    categories: byCategory,
    hard: rateCell(rows.filter((r) => r.difficulty === 'hard')),
    speed: speedCell(model, rows, input.speed ?? []),
    cost_usd: costOf(rows),
    overflow: { total: overflowed.length, recovered, unrecovered: overflowed.length - recovered },
    judges: judgesOf(rows),
    grader_versions: graderVersionsOf(rows),
    run_ids: [...new Set([...rows.map((r) => r.run_id), ...(rows.length === 0 && manifest ? [manifest.run_id] : [])])].sort(),
    last_finished_at: newest.finished_at ?? manifest?.created_at ?? '',
    comparable: notes.length === 0,
    notes: [...notes],
    status: modelStatus(model, rows, input.manifests ?? [], input.stops ?? []),
  };
}

function byRank(a: ModelSummary, b: ModelSummary): number {
  const ra = a.overall.rate ?? -1;
  const rb = b.overall.rate ?? -1;
  return rb - ra || b.overall.graded - a.overall.graded || a.model.localeCompare(b.model);
}

function runInfo(input: BuildReportInput): RunInfo[] {
  return [...(input.manifests ?? [])]
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.run_id.localeCompare(b.run_id))
    .map((m) => ({
      run_id: m.run_id,
      created_at: m.created_at,
      profile: m.profile,
      tool_version: m.tool_version,
      models: m.models.map((x) => x.label),
      cases: m.cases.length,
      judge: m.judge,
    }));
}

/**
 * Builds everything the three renderers show from plain result rows. Pure: same input, same output;
 * throws a ReportError only for malformed input.
 */
export function buildReport(input: BuildReportInput): ReportData {
  checkInput(input);
  const rowsIn = filterModels(input.rows, input.models, input);
  const { rows, superseded } = selectLatest(rowsIn);
  const maxChars = input.maxDetailChars ?? DEFAULT_MAX_DETAIL_CHARS;
  const categories = orderCategories(rows.map((r) => r.category));
  const { issues, notes } = analyseComparability(rows, input.manifests ?? []);

  const rowsByModel = new Map<string, ResultRow[]>();
  for (const model of allModels(rows, input)) if (input.models === undefined || input.models.includes(model)) rowsByModel.set(model, []);
  for (const row of rows) rowsByModel.get(row.model)?.push(row);
  const models = [...rowsByModel]
    .map(([model, modelRows]) => summarise(model, modelRows, categories, input, notes.get(model) ?? []))
    .sort(byRank);
  models.forEach((m, i) => {
    m.rank = i + 1;
  });

  const rankOf = new Map(models.map((m) => [m.model, m.rank]));
  const categoryIndex = new Map(categories.map((c, i) => [c, i]));
  const failures = rows
    .map((row) => failureEntry(row, maxChars))
    .filter((f): f is FailureEntry => f !== null)
    .sort(
      (a, b) =>
        (rankOf.get(a.model) ?? 0) - (rankOf.get(b.model) ?? 0) ||
        (categoryIndex.get(a.category) ?? 0) - (categoryIndex.get(b.category) ?? 0) ||
        a.case_id.localeCompare(b.case_id),
    );

  const byCase = new Map<string, Map<string, ResultRow>>();
  for (const [model, modelRows] of rowsByModel) byCase.set(model, new Map(modelRows.map((r) => [r.case_id, r])));

  return {
    schema_version: REPORT_SCHEMA_VERSION,
    generated_at: input.generatedAt,
    tool_version: input.toolVersion,
    categories,
    runs: runInfo(input),
    models,
    comparability: { comparable: issues.length === 0, issues },
    failures,
    paired: compareAll(
      models.map((m) => m.model),
      byCase,
    ),
    pairwise: input.pairwise ? pairwiseReport(input.pairwise) : null,
    counts: {
      rows_in: rowsIn.length,
      rows_used: rows.length,
      rows_superseded: superseded,
      cases: new Set(rows.map((r) => r.case_id)).size,
    },
  };
}
