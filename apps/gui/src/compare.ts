import { compareRuns, parseGate, parseThresholds, type Comparison } from '@crucibleforge/report';
import { loadRunSide } from '@crucibleforge/runner';
import { HttpError } from './http';
import { checkRunId } from './paths';
import { RunCache } from './run-cache';

async function side(resultsDir: string, query: URLSearchParams, name: 'baseline' | 'candidate', cache: RunCache): ReturnType<typeof loadRunSide> {
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
  const thresholds = parseThresholds({ max_drop_pp: query.get('max_drop_pp'), max_slowdown: query.get('max_slowdown') }, (key) => `query parameter ${key}`);
  const gate = query.get('gate');
  return compareRuns({ baseline, candidate, thresholds, ...(gate ? { gate: parseGate(gate) } : {}) });
}
