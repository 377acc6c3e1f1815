import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tableError } from '@crucibleforge/core';
import { checkSimOptions, SIM_ERRORS } from './config';
import { DEFAULT_ANSWER, resolveModel, type ResolvedModel } from './model';
import { planReply } from './plan';
import { awaitWithKeepAlive, jsonReply, streamError, streamReply, type ReplyContext } from './reply';
import { BadRequest, requestView, wantsUsageChunk } from './request';
import { countPromptTokens } from './tokenize';
import type { SimAnswer, SimAnswerError, SimEndpoint, SimEndpointOptions, SimFault, SimRequestView, SimTruth } from './types';
import { errorBody } from './wire';

/** Local servers (LM Studio, llama.cpp, Ollama) allow any origin; so does the sim, for browser clients. */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
};

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function newTruth(index: number, model: string, receivedMs: number): SimTruth {
  return {
    index,
    model,
    stream: false,
    received_ms: receivedMs,
    prompt_tokens: 0,
    completion_tokens: 0,
    reasoning_tokens: 0,
    content_tokens: 0,
    tool_call_count: 0,
    events: 0,
    first_token_ms: null,
    first_reasoning_ms: null,
    first_content_ms: null,
    last_token_ms: null,
    finish_reason: null,
    fault: null,
    event_times_ms: [],
    first_token_due_ms: null,
  };
}

/** The model list in OpenAI shape (plus context_length), or LM Studio's /api/v0 shape. */
function modelEntry(model: ResolvedModel, lmStudio: boolean) {
  const context = model.options.context_length;
  if (lmStudio) {
    return {
      id: model.id,
      object: 'model',
      type: 'llm',
      publisher: 'crucibleforge',
      arch: 'sim',
      compatibility_type: 'gguf',
      quantization: 'Q4_K_M',
      state: 'loaded',
      ...(context !== undefined ? { max_context_length: context } : {}),
    };
  }
  return { id: model.id, object: 'model', created: 0, owned_by: 'crucibleforge-sim', ...(context !== undefined ? { context_length: context } : {}) };
}

class SimServer {
  readonly truth: SimTruth[] = [];
  readonly requests: Record<string, unknown>[] = [];
  private readonly models = new Map<string, ResolvedModel>();
  private readonly perModel = new Map<string, number>();
  private readonly inFlight = new Set<AbortController>();

  constructor(private readonly options: SimEndpointOptions) {
    for (const model of options.models) this.models.set(model.id, resolveModel(model));
  }

  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    for (const [name, value] of Object.entries(CORS)) res.setHeader(name, value);
    this.route(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, `sim endpoint failure: ${String(error)}`));
      else res.destroy();
    });
  };

  abortAll(): void {
    for (const controller of this.inFlight) controller.abort();
  }

  private authorized(req: IncomingMessage): boolean {
    return this.options.api_key === undefined || req.headers.authorization === `Bearer ${this.options.api_key}`;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') return void res.writeHead(204).end();
    if (method === 'POST' && path === '/v1/chat/completions') return this.chat(req, res);
    if (method === 'GET' && (path === '/health' || path === '/v1/health')) return sendJson(res, 200, { status: 'ok' });
    if (!this.authorized(req)) return sendJson(res, 401, errorBody(401, 'Incorrect API key provided.'));
    if (method === 'GET') {
      const list = /^\/(v1|api\/v0)\/models(?:\/(.+))?$/.exec(path);
      if (list) {
        const lmStudio = list[1] === 'api/v0';
        if (list[2] === undefined) {
          return sendJson(res, 200, { object: 'list', data: [...this.models.values()].map((m) => modelEntry(m, lmStudio)) });
        }
        const model = this.models.get(decodeURIComponent(list[2]));
        if (model) return sendJson(res, 200, modelEntry(model, lmStudio));
        return sendJson(res, 404, errorBody(404, this.unknownModel(decodeURIComponent(list[2])), 'model'));
      }
    }
    sendJson(res, 404, errorBody(404, `The sim endpoint has no route ${method} ${path || '/'}`));
  }

  private unknownModel(id: string): string {
    return `The model '${id}' does not exist. Available models: ${[...this.models.keys()].join(', ')}`;
  }

  private async chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const receivedMs = performance.now();
    const index = this.truth.length;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const record = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    this.requests.push(record);
    const truth = newTruth(index, typeof record.model === 'string' ? record.model : '', receivedMs);
    truth.stream = record.stream === true;
    this.truth.push(truth);
    const fail = (status: number, message: string, param: string | null = null, headers: Record<string, string> = {}) => {
      truth.status = status;
      sendJson(res, status, errorBody(status, message, param), headers);
    };
    if (!this.authorized(req)) return fail(401, 'Incorrect API key provided.');
    if (body === undefined) return fail(400, 'The request body is not valid JSON.');
    const model = this.models.get(truth.model);
    let view: SimRequestView;
    try {
      view = requestView(body, index, this.perModel.get(truth.model) ?? 0);
    } catch (error) {
      if (error instanceof BadRequest) return fail(400, error.message, error.param);
      throw error;
    }
    if (!model) return fail(404, this.unknownModel(view.model), 'model');
    this.perModel.set(model.id, (view.model_index ?? 0) + 1);
    truth.prompt_tokens = countPromptTokens(view.messages, view.tools);
    const fault = this.faultFor(model, view);
    truth.fault = fault?.kind ?? null;
    if (fault?.kind === 'status') {
      const wait = fault.retry_after_s ?? 1;
      const retryAfter = fault.retry_after_date ? new Date(Date.now() + wait * 1000).toUTCString() : String(wait);
      const headers: Record<string, string> = fault.status === 429 ? { 'retry-after': retryAfter } : {};
      return fail(fault.status, fault.message ?? `Simulated HTTP ${fault.status}`, null, headers);
    }
    if (fault?.kind === 'reset_before_response') {
      truth.status = 0;
      req.socket.destroy();
      return;
    }
    const controller = new AbortController();
    this.inFlight.add(controller);
    res.on('close', () => {
      this.inFlight.delete(controller);
      if (!res.writableFinished) {
        truth.aborted = true;
        controller.abort();
      }
    });
    let answer: SimAnswer | SimAnswerError;
    try {
      answer = await awaitWithKeepAlive(this.answerFor(model, view, controller.signal), res, model, truth, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      answer = { error: { status: 500, message: `The sim answer function failed: ${error instanceof Error ? error.message : String(error)}` } };
    }
    if ('error' in answer) {
      if (!res.headersSent) return fail(answer.error.status, answer.error.message);
      return streamError(res, model, errorBody(answer.error.status, answer.error.message));
    }
    const answeredMs = performance.now();
    truth.status = 200;
    if (fault?.kind === 'not_sse') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>Welcome</title></head><body><h1>It works!</h1></body></html>\n');
      return;
    }
    const ctx: ReplyContext = {
      res,
      model,
      truth,
      fault,
      include_usage: wantsUsageChunk(record),
      signal: controller.signal,
      answered_ms: answeredMs,
      header: { id: `chatcmpl-sim-${index}`, created: Math.floor(Date.now() / 1000), model: model.options.respond_as ?? view.model },
      plan: planReply(answer, {
        encoding: model.reasoning_encoding,
        tokens_per_event: model.tokens_per_event,
        max_tokens: model.cut_at_max_tokens ? view.max_tokens : null,
        call_id_prefix: `call_${index}`,
      }),
    };
    await (view.stream ? streamReply(ctx) : jsonReply(ctx));
  }

  private faultFor(model: ResolvedModel, view: SimRequestView): SimFault | undefined {
    const faults = model.options.faults;
    if (typeof faults === 'function') return faults(view) ?? undefined;
    return faults?.[view.model_index ?? 0] ?? undefined;
  }

  /** A fixed answer loses its reasoning when the request switched reasoning off; a function decides itself. */
  private async answerFor(model: ResolvedModel, view: SimRequestView, signal: AbortSignal): Promise<SimAnswer | SimAnswerError> {
    const answer = model.options.answer ?? DEFAULT_ANSWER;
    if (typeof answer === 'function') return answer(view, { signal });
    if (view.reasoning_off) return { ...answer, reasoning: undefined };
    return answer;
  }
}

/**
 * Starts the sim endpoint on loopback (port 0 = a free port). Throws CrucibleError SIM_CONFIG_INVALID
 * for bad options and SIM_LISTEN_FAILED when the port cannot be bound.
 */
export async function startSimEndpoint(options: SimEndpointOptions): Promise<SimEndpoint> {
  const checked = checkSimOptions(options);
  const sim = new SimServer(checked);
  const server = createServer({ noDelay: true, keepAlive: true }, sim.handle);
  const host = checked.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(tableError(SIM_ERRORS, 'SIM_LISTEN_FAILED', `sim endpoint cannot listen on ${host}:${checked.port ?? 0}: ${error.message}`, { cause: error })),
    );
    server.listen(checked.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}/v1`,
    port,
    truth: sim.truth,
    requests: sim.requests,
    close() {
      closing ??= new Promise<void>((resolve) => {
        sim.abortAll();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
