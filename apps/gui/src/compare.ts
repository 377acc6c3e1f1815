import { compareRuns, parseGate, type CompareThresholds, type Comparison } from '@crucibleforge/report';
import { loadRunSide, type RunSide } from '@crucibleforge/runner';
import { HttpError } from './http';
import { checkRunId } from './paths';
import { RunCache } from './run-cache';

/** A query number ≥ 0, or absent; `name` is in the error. */
function queryNumber(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new HttpError(400, `query parameter ${name} must be a number ≥ 0, got "${raw.slice(0, 40)}"`);
  return n;
}

async function side(resultsDir: string, query: URLSearchParams, name: 'baseline' | 'candidate', cache: RunCache): Promise<RunSide> {
  const run = query.get(name);
  if (!run) throw new HttpError(400, `query parameter ${name} (a run id) is required`);
  return loadRunSide(resultsDir, checkRunId(run), query.get(`${name}_model`) || null, {
    load: async (_dir, runId) => (await cache.get(runId)).run,
    speed: async (_dir, runId) => (await cache.get(runId)).speed,
  });
}

/**
 * `GET /api/compare?baseline=RUN[&baseline_model=M]&candidate=RUN[&candidate_model=M][&gate=…&max_drop_pp=N&max_slowdown=P]`:
 * the reporter's comparison of two runs (or two models of one run), the same as `crucibleforge compare --json`.
 * `max_slowdown` is in percent. Unknown runs are 404; unknown models, no shared cases and bad values 400.
 */
export async function compareView(resultsDir: string, query: URLSearchParams, cache: RunCache = new RunCache({ resultsDir })): Promise<Comparison> {
  const baseline = await side(resultsDir, query, 'baseline', cache);
  const candidate = await side(resultsDir, query, 'candidate', cache);
  const drop = queryNumber(query, 'max_drop_pp');
  const slowdown = queryNumber(query, 'max_slowdown');
  const thresholds: Partial<CompareThresholds> = {
    ...(drop === undefined ? {} : { max_drop_pp: drop }),
    ...(slowdown === undefined ? {} : { max_slowdown: slowdown / 100 }),
  };
  const gate = query.get('gate');
  return compareRuns({ baseline, candidate, thresholds, ...(gate ? { gate: parseGate(gate) } : {}) });
}
