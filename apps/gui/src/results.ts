import type { ReportData } from '@crucibleforge/report';
import type { LoadedRun, RunRow } from '@crucibleforge/runner';
import { HttpError } from './http';

/** One row of a run as the results table lists it (the case view fetches the whole row). */
export interface RowSummary {
  model: string;
  case_id: string;
  seed: number | null;
  category: string;
  difficulty: string;
  title: string | null;
  status: string;
  reason: string;
  judge_verdict: string | null;
  cost_usd: number | null;
  e2e_s: number | null;
  decode_tps: number | null;
}

export interface CategoryChart {
  category: string;
  bars: { model: string; rate: number | null; ci95: [number, number] | null; passes: number; graded: number }[];
}

export interface SpeedChart {
  model: string;
  decode_tps: number | null;
  ttft_s: number | null;
  source: string;
}

export interface RunResults {
  run: {
    run_id: string;
    created_at: string;
    profile: string;
    seed: number;
    models: string[];
    cases: number;
    judge: LoadedRun['manifest']['judge'];
    total: number;
    rows: number;
    stopped: LoadedRun['stopped'];
  };
  /** The reporter's data (rates with 95 % Wilson intervals, comparability, paired tests); failure details trimmed. */
  report: ReportData;
  charts: { categories: CategoryChart[]; speed: SpeedChart[] };
  rows: RowSummary[];
}

function rowSummary(row: RunRow): RowSummary {
  return {
    model: row.model,
    case_id: row.case_id,
    seed: row.seed,
    category: row.category,
    difficulty: row.difficulty,
    title: row.title ?? null,
    status: row.judge?.verdict === 'judge-error' && row.grade.status !== 'pass' && row.grade.status !== 'fail' ? 'judge-error' : row.grade.status,
    reason: row.grade.reason,
    judge_verdict: row.judge?.verdict ?? null,
    cost_usd: row.cost_usd,
    e2e_s: row.timings.e2e_s,
    decode_tps: row.timings.decode_tps,
  };
}

/**
 * Everything the results page shows: the run's board (the runner's buildBoard, as the CLI's `report` builds it),
 * plus the charts and the row list.
 */
export function runResults(run: LoadedRun, report: ReportData): RunResults {
  const categories: CategoryChart[] = report.categories.map((category) => ({
    category,
    bars: report.models.map((m) => {
      const cell = m.categories[category];
      return { model: m.model, rate: cell?.rate ?? null, ci95: cell?.ci95 ?? null, passes: cell?.passes ?? 0, graded: cell?.graded ?? 0 };
    }),
  }));
  const speed: SpeedChart[] = report.models.map((m) => ({
    model: m.model,
    decode_tps: m.speed?.decode_tps ?? null,
    ttft_s: m.speed?.ttft_s ?? null,
    source: m.speed?.source ?? 'none',
  }));
  return {
    run: {
      run_id: run.manifest.run_id,
      created_at: run.manifest.created_at,
      profile: run.manifest.profile,
      seed: run.manifest.seed,
      models: run.manifest.models.map((m) => m.label),
      cases: run.manifest.cases.length,
      judge: run.manifest.judge,
      total: run.manifest.models.length * run.manifest.cases.length,
      rows: run.rows.length,
      stopped: run.stopped,
    },
    report: { ...report, failures: report.failures.map((f) => ({ ...f, detail: { ...f.detail, messages: [], transcript: null } })) },
    charts: { categories, speed },
    rows: run.rows.map(rowSummary),
  };
}

/** The full stored row of one case of one model (prompt, reply, reasoning, tool calls, grade, judge). */
export function findRow(run: LoadedRun, model: string, caseId: string, seed: string | null): RunRow {
  const wantSeed = seed === null || seed === '' || seed === 'null' ? null : Number(seed);
  if (wantSeed !== null && !Number.isInteger(wantSeed)) throw new HttpError(400, `seed must be a whole number, got "${seed}"`);
  const row = run.rows.find((r) => r.model === model && r.case_id === caseId && (seed === null || r.seed === wantSeed));
  if (!row) throw new HttpError(404, `run ${run.manifest.run_id} has no row for model "${model}", case "${caseId}"${wantSeed === null ? '' : `, seed ${wantSeed}`}`);
  return row;
}
