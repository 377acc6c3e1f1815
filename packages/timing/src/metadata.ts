import { finiteNumber as num, jsonObject as obj, nonEmptyString as str, type FetchLike, type JsonObject as Json } from '@crucibleforge/core';

/** What the endpoint says about one model; every field is optional because every source is. */
export interface ModelInfo {
  id: string;
  arch: string | null;
  quantization: string | null;
  state: 'loaded' | 'not-loaded' | null;
  max_context: number | null;
  size_bytes: number | null;
  parameter_count: number | null;
  /** e.g. "8.0B" (Ollama) */
  parameter_size: string | null;
  expert_count: number | null;
  expert_used_count: number | null;
  /** Which endpoints contributed: openai (/v1/models), lmstudio (/api/v0/models), ollama (/api/tags, /api/show). */
  sources: string[];
}

export interface ModelMetadata {
  base_url: string;
  models: ModelInfo[];
  /** Endpoints that answered. */
  sources: string[];
}

export interface MetadataOptions {
  fetch?: FetchLike;
  apiKey?: string;
  /** Also ask Ollama's /api/show about this model. */
  model?: string;
  /** Per request, default 5000 ms. */
  timeoutMs?: number;
}

/** The server root for the non-OpenAI APIs: the base URL without its trailing `/v1`. */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** A JSON request's outcome: the body (null when it is not an object), or why there is none. */
type Fetched = { ok: true; body: Json | null } | { ok: false; reason: string };

async function fetchJson(url: string, options: MetadataOptions, init: RequestInit = {}): Promise<Fetched> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const method = init.method ?? 'GET';
  try {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    if (init.body) headers['content-type'] = 'application/json';
    const response = await fetchFn(url, {
      ...init,
      headers,
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: false, reason: `${method} ${url} answered HTTP ${response.status}` };
    }
    return { ok: true, body: obj(await response.json()) };
  } catch (error) {
    return { ok: false, reason: `${method} ${url} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const bodyOf = (fetched: Fetched): Json | null => (fetched.ok ? fetched.body : null);

/** What `<base_url>/models` said: the ids it lists, or why it listed none (HTTP status, network error, no list). */
export type ModelListing = { ok: true; ids: string[] } | { ok: false; reason: string };

function listingOf(url: string, fetched: Fetched): ModelListing {
  if (!fetched.ok) return fetched;
  const data = fetched.body?.data;
  if (!Array.isArray(data)) return { ok: false, reason: `GET ${url} answered without a model list (no "data" array)` };
  return { ok: true, ids: data.map((m) => str(obj(m)?.id)).filter((id): id is string => id !== null) };
}

const modelsUrl = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}/models`;

/** The ids `/v1/models` lists, or null when it cannot be read. */
export async function fetchModelIds(baseUrl: string, options: MetadataOptions = {}): Promise<string[] | null> {
  const url = modelsUrl(baseUrl);
  const listing = listingOf(url, await fetchJson(url, options));
  return listing.ok ? listing.ids : null;
}

function blank(id: string): ModelInfo {
  return {
    id,
    arch: null,
    quantization: null,
    state: null,
    max_context: null,
    size_bytes: null,
    parameter_count: null,
    parameter_size: null,
    expert_count: null,
    expert_used_count: null,
    sources: [],
  };
}

/** Fills the fields still null in `into` from `from`. */
function fill(into: ModelInfo, from: Partial<ModelInfo>, source: string): void {
  for (const [key, value] of Object.entries(from)) {
    if (key === 'id' || key === 'sources' || value === null || value === undefined) continue;
    const k = key as keyof ModelInfo;
    if (into[k] === null) (into as unknown as Json)[k] = value;
  }
  if (!into.sources.includes(source)) into.sources.push(source);
}

function fromOpenAi(m: Json): Partial<ModelInfo> {
  // llama.cpp adds `meta {n_params, size, n_ctx_train}`; vLLM `max_model_len`; OpenRouter `context_length`.
  const meta = obj(m.meta);
  return {
    parameter_count: num(meta?.n_params),
    size_bytes: num(meta?.size),
    max_context: num(m.context_length) ?? num(m.max_model_len) ?? num(meta?.n_ctx_train),
  };
}

function fromLmStudio(m: Json): Partial<ModelInfo> {
  const state = str(m.state);
  return {
    arch: str(m.arch),
    quantization: str(m.quantization),
    state: state === 'loaded' || state === 'not-loaded' ? state : null,
    max_context: num(m.max_context_length),
  };
}

function fromOllamaTag(m: Json): Partial<ModelInfo> {
  const details = obj(m.details);
  return {
    arch: str(details?.family),
    quantization: str(details?.quantization_level),
    size_bytes: num(m.size),
    parameter_size: str(details?.parameter_size),
  };
}

function fromOllamaShow(show: Json): Partial<ModelInfo> {
  const info = obj(show.model_info) ?? {};
  const arch = str(info['general.architecture']);
  const details = obj(show.details);
  return {
    arch,
    quantization: str(details?.quantization_level),
    parameter_count: num(info['general.parameter_count']),
    max_context: arch ? num(info[`${arch}.context_length`]) : null,
    expert_count: arch ? num(info[`${arch}.expert_count`]) : null,
    expert_used_count: arch ? num(info[`${arch}.expert_used_count`]) : null,
  };
}

/** An endpoint asked once: whether `/v1/models` lists models (and why not), and every model's metadata. */
export interface EndpointProbe {
  listing: ModelListing;
  metadata: ModelMetadata;
}

/**
 * Collects model metadata from whatever the endpoint offers: `/v1/models` (with llama.cpp's `meta`),
 * LM Studio's `/api/v0/models`, Ollama's `/api/tags` and `/api/show`. Each source is optional; one
 * that fails or is absent is skipped without an error.
 */
export async function listModelMetadata(baseUrl: string, options: MetadataOptions = {}): Promise<ModelMetadata> {
  return (await probeEndpoint(baseUrl, options)).metadata;
}

/**
 * {@link listModelMetadata}, plus what `/v1/models` itself said (`listing`): an endpoint that is down says
 * why (`GET …/models answered HTTP 401`, `… failed: fetch failed`). Never throws.
 */
export async function probeEndpoint(baseUrl: string, options: MetadataOptions = {}): Promise<EndpointProbe> {
  const root = serverRoot(baseUrl);
  const models = new Map<string, ModelInfo>();
  const sources: string[] = [];
  const entry = (id: string) => {
    let info = models.get(id);
    if (!info) models.set(id, (info = blank(id)));
    return info;
  };
  const url = modelsUrl(baseUrl);
  const [listed, lmstudio, ollama, show] = await Promise.all([
    fetchJson(url, options),
    fetchJson(`${root}/api/v0/models`, options).then(bodyOf),
    fetchJson(`${root}/api/tags`, options).then(bodyOf),
    options.model
      ? fetchJson(`${root}/api/show`, options, { method: 'POST', body: JSON.stringify({ model: options.model }) }).then(bodyOf)
      : Promise.resolve(null),
  ]);
  const openai = bodyOf(listed);
  const list = (body: Json | null, key: string) => (Array.isArray(body?.[key]) ? (body[key] as unknown[]) : null);
  const openaiList = list(openai, 'data');
  if (openaiList) {
    sources.push('openai');
    for (const m of openaiList.map(obj)) if (m && str(m.id)) fill(entry(str(m.id)!), fromOpenAi(m), 'openai');
  }
  const lmList = list(lmstudio, 'data');
  if (lmList) {
    sources.push('lmstudio');
    for (const m of lmList.map(obj)) if (m && str(m.id)) fill(entry(str(m.id)!), fromLmStudio(m), 'lmstudio');
  }
  const tagList = list(ollama, 'models');
  if (tagList) {
    sources.push('ollama');
    for (const m of tagList.map(obj)) {
      const id = m ? (str(m.model) ?? str(m.name)) : null;
      if (m && id) fill(entry(id), fromOllamaTag(m), 'ollama');
    }
  }
  if (show && options.model && obj(show.model_info)) {
    if (!sources.includes('ollama')) sources.push('ollama');
    fill(entry(options.model), fromOllamaShow(show), 'ollama');
  }
  return { listing: listingOf(url, listed), metadata: { base_url: baseUrl, models: [...models.values()], sources } };
}
