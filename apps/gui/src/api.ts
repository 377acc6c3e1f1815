import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildBoard, listRuns, modelsView, type RunnerConfig, type RunnerConfigData } from '@crucibleforge/runner';
import { categoryList, type CaseCatalog } from './catalog';
import { compareView } from './compare';
import type { RequestGate } from './gate';
import { HttpError, readJson, SECURITY_HEADERS, sendJson, sendJsonText, type Scrub } from './http';
import type { ProviderProbe } from './models';
import { checkRunId } from './paths';
import { parseRunRequest } from './request';
import { findRow, runResults } from './results';
import type { RunCache } from './run-cache';
import { liveView, type RunService } from './runs';
import { streamLive } from './sse';

/** What the API handlers need; built once by the server. */
export interface ApiContext {
  config(): Promise<RunnerConfig | RunnerConfigData>;
  configFile: string | null;
  env: Record<string, string | undefined>;
  resultsDir: string;
  casesDir: string;
  runs: RunService;
  probe: ProviderProbe;
  catalog: CaseCatalog;
  toolVersion: string;
  tokenRequired: boolean;
  now: () => Date;
  /** Reads runs (path guard, size cap, one read per version of the files). */
  runCache: RunCache;
  /** Bounds the heavy GETs (a run's results, a row, a comparison, the run list). */
  heavy: RequestGate;
}

type Handler = (ctx: ApiContext, req: IncomingMessage, res: ServerResponse, params: string[], query: URLSearchParams, scrub: Scrub) => Promise<void>;

interface Route {
  method: 'GET' | 'POST';
  /** Path segments after /api; `:id` matches a run id. */
  pattern: string[];
  handler: Handler;
}

const routes: Route[] = [
  {
    method: 'GET',
    pattern: ['state'],
    handler: async (ctx, _req, res, _p, _q, scrub) => {
      const active = ctx.runs.active();
      sendJson(
        res,
        200,
        {
          version: ctx.toolVersion,
          config_file: ctx.configFile,
          results_dir: ctx.resultsDir,
          cases_dir: ctx.casesDir,
          token_required: ctx.tokenRequired,
          categories: categoryList(),
          active: active ? liveView(active) : null,
        },
        scrub,
      );
    },
  },
  {
    method: 'GET',
    pattern: ['models'],
    handler: async (ctx, _req, res, _p, query, scrub) => {
      const config = await ctx.config();
      const statuses = await ctx.probe.statuses(config, ctx.env, query.get('refresh') === '1');
      sendJson(res, 200, modelsView(config, statuses), scrub);
    },
  },
  {
    method: 'GET',
    pattern: ['profiles'],
    handler: async (ctx, _req, res, _p, _q, scrub) => {
      sendJson(res, 200, { profiles: await ctx.catalog.profiles(), categories: categoryList() }, scrub);
    },
  },
  {
    method: 'POST',
    pattern: ['estimate'],
    handler: async (ctx, req, res, _p, _q, scrub) => {
      const request = parseRunRequest(await readJson(req));
      sendJson(res, 200, await ctx.runs.estimate(await ctx.config(), request), scrub);
    },
  },
  {
    method: 'GET',
    pattern: ['runs'],
    handler: async (ctx, _req, res, _p, _q, scrub) => {
      // a run folder the cache refuses (a link outside the results dir, over the size cap) is not listed
      const stored = await ctx.heavy.run(() => listRuns(ctx.resultsDir, async (_dir, runId) => (await ctx.runCache.get(runId)).run));
      const runs = stored.reverse().map((r) => {
        const live = ctx.runs.get(r.run_id);
        return { ...r, live: live ? live.status : null };
      });
      const active = ctx.runs.active();
      sendJson(res, 200, { runs, active: active ? liveView(active) : null }, scrub);
    },
  },
  {
    method: 'POST',
    pattern: ['runs'],
    handler: async (ctx, req, res, _p, _q, scrub) => {
      const request = parseRunRequest(await readJson(req));
      const live = await ctx.runs.start(await ctx.config(), request);
      sendJson(res, 202, { run: liveView(live) }, scrub);
    },
  },
  {
    method: 'GET',
    pattern: ['runs', ':id'],
    handler: async (ctx, _req, res, [id], _q, scrub) => {
      await ctx.heavy.run(async () => {
        // the board (the runner's buildBoard, as the CLI's `report` builds it) is computed and serialised once per
        // version of the run's files, however many ask
        const json = await ctx.runCache.derive(id!, 'results', async ({ run }) =>
          JSON.stringify(runResults(run, await buildBoard(ctx.resultsDir, [id!], { generatedAt: ctx.now().toISOString(), toolVersion: ctx.toolVersion, maxDetailChars: 300 }))),
        );
        const live = ctx.runs.get(id!);
        await sendJsonText(res, 200, `${json.slice(0, -1)},"live":${JSON.stringify(live ? liveView(live) : null)}}`, scrub);
      });
    },
  },
  {
    method: 'GET',
    pattern: ['runs', ':id', 'events'],
    handler: async (ctx, req, res, [id], _q, scrub) => {
      if (req.method === 'HEAD') {
        res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8' }).end();
        return;
      }
      await streamLive(req, res, ctx.runs.get(id!), scrub);
    },
  },
  {
    method: 'GET',
    pattern: ['runs', ':id', 'case'],
    handler: async (ctx, _req, res, [id], query, scrub) => {
      const model = query.get('model');
      const caseId = query.get('case');
      if (!model || !caseId) throw new HttpError(400, 'query parameters model and case are required (seed optional)');
      await ctx.heavy.run(async () => {
        const { run } = await ctx.runCache.get(id!);
        await sendJsonText(res, 200, JSON.stringify({ run_id: id, row: findRow(run, model, caseId, query.get('seed')) }), scrub);
      });
    },
  },
  {
    method: 'GET',
    pattern: ['compare'],
    handler: async (ctx, _req, res, _p, query, scrub) => {
      await ctx.heavy.run(async () => sendJsonText(res, 200, JSON.stringify(await compareView(ctx.resultsDir, query, ctx.runCache)), scrub));
    },
  },
  {
    method: 'POST',
    pattern: ['runs', ':id', 'stop'],
    handler: async (ctx, _req, res, [id], _q, scrub) => {
      if (!ctx.runs.stop(id!)) throw new HttpError(409, `run ${id} is not running in this GUI`);
      sendJson(res, 202, { stopping: id }, scrub);
    },
  },
];

function match(pattern: string[], segments: string[]): string[] | null {
  if (pattern.length !== segments.length) return null;
  const params: string[] = [];
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === ':id') params.push(checkRunId(segments[i]!));
    else if (pattern[i] !== segments[i]) return null;
  }
  return params;
}

/** Dispatches `/api/<segments>`; 404 for unknown paths, 405 for a known path with the wrong method. */
export async function handleApi(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, segments: string[], query: URLSearchParams, scrub: Scrub): Promise<void> {
  let allowed: string[] = [];
  for (const route of routes) {
    const params = match(route.pattern, segments);
    if (params === null) continue;
    if (route.method !== req.method && !(route.method === 'GET' && req.method === 'HEAD')) {
      allowed.push(route.method);
      continue;
    }
    await route.handler(ctx, req, res, params, query, scrub);
    return;
  }
  allowed = [...new Set(allowed)];
  if (allowed.length > 0) throw new HttpError(405, `use ${allowed.join(' or ')} here`, { allow: allowed.join(', ') });
  throw new HttpError(404, `no API route /api/${segments.join('/')}`);
}

/** The API routes, for the README and tests: `METHOD /api/path`. */
export function apiRoutes(): string[] {
  return routes.map((r) => `${r.method} /api/${r.pattern.join('/')}`);
}
