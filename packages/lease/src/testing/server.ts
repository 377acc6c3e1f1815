import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { envelope, LeaseBook, type BookReply, type DoubleModel } from './book';

export interface LeaseServerDoubleOptions {
  /** The double's clock in milliseconds (default Date.now): idle expiry and load times follow it. */
  now?: () => number;
  /** CUDA indices the box has (default [0, 1]). */
  gpus?: number[];
  /** Known models; omitted = any id accepted, loads instantly. */
  models?: DoubleModel[];
  /** Require this key on every non-public path (Bearer, bare Authorization or X-API-Key), else 401. */
  apiKey?: string;
  /** The MCP pairing PIN that lets a remote caller mutate leases. */
  pin?: string;
  /** Treat every caller as remote: lease mutations need the PIN (or the key), else 403. Default false (loopback). */
  remote?: boolean;
  /** Vacate window in seconds (default 180). */
  vacateWindowS?: number;
  /** Port (default 0 = any free one). */
  port?: number;
}

/** A request the double received (auth headers kept so tests can check what was sent). */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** A canned reply for the next matching request, ahead of the normal rules. */
export interface ScriptedReply {
  method?: string;
  /** Exact path, or a RegExp. Default: any. */
  path?: string | RegExp;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send these bytes instead of JSON (e.g. a broken body). */
  raw?: string;
}

export interface LeaseServerDouble {
  /** `http://127.0.0.1:<port>` (the management root; `${url}/v1` works too). */
  url: string;
  /** The lease book: leases, residents, vacate asks, expired/released ids, priority hold. Mutate it to set up scenes. */
  state: LeaseBook;
  requests: RecordedRequest[];
  /** Queues a canned reply for the next request that matches. */
  script(reply: ScriptedReply): void;
  close(): Promise<void>;
}

const PUBLIC = new Set(['/health', '/healthz', '/api/health', '/favicon.ico']);

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function bearer(req: IncomingMessage): string | undefined {
  const auth = header(req, 'authorization');
  if (!auth) return undefined;
  return auth.replace(/^Bearer\s+/i, '').trim();
}

function authorize(req: IncomingMessage, path: string, options: LeaseServerDoubleOptions): BookReply | null {
  if (PUBLIC.has(path)) return null;
  const token = bearer(req);
  const keyOk = options.apiKey !== undefined && (token === options.apiKey || header(req, 'x-api-key') === options.apiKey);
  if (options.apiKey !== undefined && !keyOk) {
    return envelope(401, 'invalid_api_key', 'Invalid or missing API key');
  }
  const mutation = req.method !== 'GET' && req.method !== 'HEAD' && path.startsWith('/api/leases');
  if (mutation && options.remote) {
    const pin = header(req, 'x-mcp-pin') ?? header(req, 'x-studioforge-pin') ?? token;
    const pinOk = options.pin !== undefined && pin === options.pin;
    if (!pinOk && !keyOk) {
      return envelope(403, 'remote_admin_requires_credential', 'lease changes from another machine need the MCP pairing PIN (X-MCP-Pin)');
    }
  }
  return null;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(res: ServerResponse, reply: BookReply | ScriptedReply): void {
  const raw = 'raw' in reply && reply.raw !== undefined ? reply.raw : JSON.stringify(reply.body ?? {});
  res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
  res.end(raw);
}

/**
 * Starts a loopback HTTP server that speaks the StudioForge lease protocol (integrations.md §1):
 * grants with conflicts / vacating / model_busy / priority_hold / 507, auth (key and PIN), touch,
 * idle expiry on the injected clock, DELETE (404 when unknown), `/api/status`, `/api/gpus`.
 */
export async function startLeaseServerDouble(options: LeaseServerDoubleOptions = {}): Promise<LeaseServerDouble> {
  const gpus = options.gpus ?? [0, 1];
  const book = new LeaseBook({
    now: options.now ?? Date.now,
    gpus,
    ...(options.models ? { models: options.models } : {}),
    ...(options.vacateWindowS !== undefined ? { vacateWindowS: options.vacateWindowS } : {}),
  });
  const requests: RecordedRequest[] = [];
  const scripted: ScriptedReply[] = [];

  const route = (method: string, path: string, body: unknown, req: IncomingMessage): BookReply => {
    if (path === '/health' || path === '/api/health' || path === '/healthz') {
      return { status: 200, body: { status: 'ok', version: 'double', loaded_models: book.residents.length, busy: false, draining: false } };
    }
    if (method === 'GET' && path === '/api/leases') {
      const leases = book.views();
      return { status: 200, body: { leases, count: leases.length } };
    }
    if (method === 'POST' && path === '/api/leases') return book.grant(body, header(req, 'x-sf-client') ?? 'api');
    const match = /^\/api\/leases\/([^/]+)(\/touch)?$/.exec(path);
    if (match) {
      const id = decodeURIComponent(match[1]!);
      if (method === 'POST' && match[2]) return book.touch(id);
      if (method === 'DELETE' && !match[2]) return book.release(id);
    }
    if (method === 'GET' && path === '/api/status') {
      return { status: 200, body: { loaded: book.residentRows(), leases: book.views(), gpus: gpus.map((index) => ({ index })), queue_depth: 0, benchmark: null, build: 'double' } };
    }
    if (method === 'GET' && path === '/api/gpus') {
      return {
        status: 200,
        body: { backend: 'cuda', gpus: gpus.map((index) => ({ index, name: `Double GPU ${index}`, total_bytes: 24 * 2 ** 30, free_bytes: 24 * 2 ** 30, used_bytes: 0 })) },
      };
    }
    return envelope(404, 'not_found', `no route ${method} ${path}`);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const method = req.method ?? 'GET';
      const path = new URL(req.url ?? '/', 'http://double').pathname;
      const body = await readBody(req);
      requests.push({
        method,
        path,
        body,
        headers: {
          authorization: header(req, 'authorization'),
          'x-api-key': header(req, 'x-api-key'),
          'x-mcp-pin': header(req, 'x-mcp-pin'),
          'x-sf-client': header(req, 'x-sf-client'),
          'content-type': header(req, 'content-type'),
        },
      });
      const index = scripted.findIndex(
        (s) => (s.method === undefined || s.method === method) && (s.path === undefined || (typeof s.path === 'string' ? s.path === path : s.path.test(path))),
      );
      if (index >= 0) {
        send(res, scripted.splice(index, 1)[0]!);
        return;
      }
      send(res, authorize(req, path, options) ?? route(method, path, body, req));
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error), type: 'server_error', code: 'double_crashed' } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state: book,
    requests,
    script: (reply) => scripted.push(reply),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
