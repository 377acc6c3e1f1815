import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CrucibleError, makeRedactor, type ErrorKind, type FetchLike } from '@crucibleforge/core';
import { configuredSecrets, loadConfig, type CaseDriver, type RunnerConfig, type RunnerConfigData, type RunWorld } from '@crucibleforge/runner';
import { handleApi, type ApiContext } from './api';
import { casesCatalog, type CaseCatalog } from './catalog';
import { GuiError } from './errors';
import { RequestGate } from './gate';
import { HttpError, sendError, sendText, SECURITY_HEADERS, type Scrub } from './http';
import { ProviderProbe } from './models';
import { unauthorizedPage } from './pages';
import { pathSegments } from './paths';
import { RunCache } from './run-cache';
import { RunService } from './runs';
import { authenticate, crossOriginReason, hostAllowed, resolveToken, type AuthPolicy } from './security';
import { defaultStaticDir, readStatic } from './static';

export interface GuiServerOptions {
  /** Address to bind (default 127.0.0.1). Any address but 127.0.0.1, localhost or ::1 requires a token. */
  host?: string;
  /** Default 8777; 0 picks a free port. */
  port?: number;
  /** Required token; generated (24 random bytes) when binding off loopback without one. */
  token?: string;
  /** Where runs are stored (one folder per run). The only data directory requests can reach. */
  resultsDir: string;
  casesDir: string;
  /** A loaded configuration, or `configPath` to read models.yaml (re-read on each request, so edits show). */
  config?: RunnerConfig | RunnerConfigData;
  configPath?: string;
  /** Environment the API keys come from (the CLI passes its own; never sent to the browser). */
  env?: Record<string, string | undefined>;
  fetch?: FetchLike;
  /** Local GPU lock directory shared with the CLI (one run per GPU across both). */
  leaseCacheDir?: string;
  allowUnsandboxed?: boolean;
  /** Case source for runs (default: the cases package over casesDir). */
  driver?: CaseDriver;
  /** Profile listing (default: the cases package's profiles over casesDir; use driverCatalog with a custom driver). */
  catalog?: CaseCatalog;
  /** Runner world overrides (tests). */
  world?: RunWorld;
  /** The page's files (default: this package's public/). */
  staticDir?: string;
  toolVersion?: string;
  /** Bounds on heavy GETs: a run bigger than `maxRunBytes` (128 MiB) is refused; `heavyConcurrency` (4) at a time, `heavyQueue` (64) waiting. */
  maxRunBytes?: number;
  heavyConcurrency?: number;
  heavyQueue?: number;
  now?: () => Date;
  randomBytes?: (size: number) => Buffer;
}

export interface GuiServer {
  /** http://host:port/ (no token). */
  url: string;
  /** The token in force, or null on loopback without one. */
  token: string | null;
  /** True when the token was generated here (the caller should print it). */
  tokenGenerated: boolean;
  /** The URL to open: `url` plus `?token=…` when a token is in force. */
  openUrl: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

const EMPTY_CONFIG: RunnerConfigData = { providers: {}, models: {} };

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The HTTP status of a failed request, by the kind of the error (an exhaustive switch over core's ErrorKind). */
export function statusForKind(kind: ErrorKind): number {
  switch (kind) {
    case 'config':
      return 400;
    case 'not-found':
      return 404;
    case 'busy':
      return 409;
    case 'sandbox':
    case 'endpoint':
    case 'storage':
    case 'judge':
    case 'cancelled':
    case 'internal':
      return 500;
  }
}

function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (CrucibleError.isInstance(error)) {
    const status = statusForKind(error.kind);
    return new HttpError(status, status === 500 ? `${error.code}: ${error.message}` : error.message);
  }
  return new HttpError(500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * Serves the GUI: the page, the JSON + server-sent-events API over the runner, with the token, same-origin and
 * path checks on every request. Resolves once listening.
 */
export async function startGuiServer(options: GuiServerOptions): Promise<GuiServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 8777;
  if (!options.resultsDir) throw new GuiError('GUI_BAD_OPTIONS', 'startGuiServer: resultsDir is required');
  if (!options.casesDir) throw new GuiError('GUI_BAD_OPTIONS', 'startGuiServer: casesDir is required');
  let resolved: { token: string | null; generated: boolean };
  try {
    resolved = resolveToken(host, options.token, options.randomBytes);
  } catch (error) {
    throw new GuiError('GUI_TOKEN_INVALID', (error as Error).message);
  }
  const env = options.env ?? {};
  const now = options.now ?? (() => new Date());
  const toolVersion = options.toolVersion ?? '0.0.0';
  const staticDir = options.staticDir ?? defaultStaticDir();

  let scrubNow: Scrub = (t) => t;
  const scrub: Scrub = (t) => scrubNow(t);
  const readConfig = async (): Promise<RunnerConfig | RunnerConfigData> => {
    const config = options.config ?? (options.configPath ? await loadConfig(options.configPath) : EMPTY_CONFIG);
    scrubNow = makeRedactor(configuredSecrets(config, env));
    return config;
  };
  await readConfig();

  const driver = options.driver;
  const runs = new RunService({
    resultsDir: options.resultsDir,
    casesDir: options.casesDir,
    env,
    toolVersion,
    now,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.leaseCacheDir ? { leaseCacheDir: options.leaseCacheDir } : {}),
    ...(options.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
    ...(driver ? { driver } : {}),
    ...(options.world ? { world: options.world } : {}),
  });
  const ctx: ApiContext = {
    config: readConfig,
    configFile: options.configPath ?? (options.config && 'file' in options.config ? options.config.file : null),
    env,
    resultsDir: options.resultsDir,
    casesDir: options.casesDir,
    runs,
    probe: new ProviderProbe(options.fetch ?? globalThis.fetch, now),
    catalog: options.catalog ?? casesCatalog(options.casesDir),
    toolVersion,
    tokenRequired: resolved.token !== null,
    now,
    runCache: new RunCache({ resultsDir: options.resultsDir, ...(options.maxRunBytes ? { maxRunBytes: options.maxRunBytes } : {}) }),
    heavy: new RequestGate(options.heavyConcurrency ?? 4, options.heavyQueue ?? 64),
  };
  const policy: AuthPolicy = { token: resolved.token, cookieName: 'crucibleforge_gui' };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') throw new HttpError(405, `method ${method} is not allowed`, { allow: 'GET, HEAD, POST' });
    if (!hostAllowed(req, policy)) throw new HttpError(403, 'unexpected Host header: without a token this server answers only to 127.0.0.1, localhost or [::1]');
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const rawPath = q < 0 ? raw : raw.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
    const segments = pathSegments(rawPath);
    const auth = authenticate(req, query.get('token'), policy);
    if (!auth.ok) {
      const wantsPage = method !== 'POST' && segments[0] !== 'api' && (req.headers.accept ?? '').includes('text/html');
      if (wantsPage) {
        sendText(res, 401, 'text/html; charset=utf-8', unauthorizedPage(), scrub, {
          'www-authenticate': 'Bearer',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        });
        return;
      }
      throw new HttpError(401, auth.reason, { 'www-authenticate': 'Bearer' });
    }
    if (auth.via === 'query') {
      query.delete('token');
      const rest = query.toString();
      res.writeHead(303, { ...SECURITY_HEADERS, location: `${rawPath}${rest ? `?${rest}` : ''}`, 'set-cookie': auth.cookie, 'content-length': '0' });
      res.end();
      return;
    }
    if (method === 'POST') {
      const reason = crossOriginReason(req);
      if (reason) throw new HttpError(403, reason);
    }
    if (segments[0] === 'api') return handleApi(ctx, req, res, segments.slice(1), query, scrub);
    if (method === 'POST') throw new HttpError(405, 'only /api accepts POST', { allow: 'GET, HEAD' });
    if (segments.length === 1 && segments[0] === '') {
      const page = await readStatic(staticDir, ['index.html']);
      sendText(res, 200, page.type, page.body.toString('utf8'), scrub);
      return;
    }
    if (segments[0] === 'assets' && segments.length > 1) {
      const file = await readStatic(staticDir, segments.slice(1));
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': file.type, 'content-length': String(file.body.length) });
      res.end(file.body);
      return;
    }
    throw new HttpError(404, 'not found');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendError(res, toHttpError(error), scrub);
    });
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) =>
      reject(new GuiError('GUI_LISTEN_FAILED', `cannot listen on ${host}:${port}: ${error.code ?? error.message}`, { cause: error, details: { host, port } }));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(host)}:${actualPort}/`;
  return {
    url,
    token: resolved.token,
    tokenGenerated: resolved.generated,
    openUrl: resolved.token ? `${url}?token=${encodeURIComponent(resolved.token)}` : url,
    host,
    port: actualPort,
    async close() {
      await runs.stopAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
