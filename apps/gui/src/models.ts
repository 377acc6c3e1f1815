import type { FetchLike } from '@crucibleforge/core';
import { isInProcess, LOCAL_KINDS, probeEndpoint, probeInProcess, type ModelInfo, type RunnerConfigData } from '@crucibleforge/runner';

/** What an endpoint says about one model it serves, where it says it (LM Studio, Ollama, llama.cpp). */
export interface ServedModel {
  id: string;
  size_bytes: number | null;
  /** e.g. Q4_K_M */
  quantization: string | null;
  /** e.g. "8.0B" (Ollama), else from the parameter count. */
  parameter_size: string | null;
}

/** What one provider's endpoint said when asked for its models. */
export interface ProviderStatus {
  name: string;
  kind: string;
  base_url: string;
  /** up: `/models` answered; down: it did not (the reason says why). */
  status: 'up' | 'down';
  reason: string | null;
  /** The environment variable holding its key (never the key) and whether it is set. */
  api_key_env: string | null;
  key_set: boolean;
  ids: string[];
  /** Size and quantization of the models it serves, where the endpoint tells ([] when down). */
  served: ServedModel[];
  checked_at: string;
}

export interface ModelView {
  label: string;
  provider: string;
  kind: string;
  model_id: string;
  enabled: boolean;
  local: boolean;
  reasoning: string;
  context_length: number | null;
  prices: { input: number; output: number; cached_input?: number | undefined; reasoning?: number | undefined } | null;
  lease_devices: number[] | null;
  /** listed: the endpoint lists this id; missing: it is up but does not; unknown: the endpoint is down. */
  availability: 'listed' | 'missing' | 'unknown';
  /** File size in bytes and quantization, as the endpoint reports them (null where it does not). */
  size_bytes: number | null;
  quantization: string | null;
  parameter_size: string | null;
}

export interface ModelsView {
  configured: ModelView[];
  /** Ids the endpoints list that no configured model uses, with what the endpoint says about them. */
  discovered: ({ provider: string } & ServedModel)[];
  providers: ProviderStatus[];
  judge: string | null;
}

function parameterSize(info: ModelInfo): string | null {
  if (info.parameter_size) return info.parameter_size;
  return info.parameter_count === null ? null : `${(info.parameter_count / 1e9).toFixed(1)}B`;
}

function served(info: ModelInfo): ServedModel {
  return { id: info.id, size_bytes: info.size_bytes, quantization: info.quantization, parameter_size: parameterSize(info) };
}

/** Asks the endpoint (the timing package's probe, through the runner) what it serves, with the provider's key; never throws. */
export async function probeProvider(
  name: string,
  provider: RunnerConfigData['providers'][string],
  env: Record<string, string | undefined>,
  fetchFn: FetchLike,
  now: () => Date,
  timeoutMs = 4000,
  /** The model ids configured on this provider (an in-process provider "serves" exactly those). */
  configuredIds: readonly string[] = [],
): Promise<ProviderStatus> {
  const keyName = provider.api_key_env ?? null;
  const key = keyName ? env[keyName] : undefined;
  const base: Omit<ProviderStatus, 'status' | 'reason' | 'ids' | 'served'> = {
    name,
    kind: provider.kind,
    base_url: provider.base_url,
    api_key_env: keyName,
    key_set: typeof key === 'string' && key !== '',
    checked_at: now().toISOString(),
  };
  const { listing, metadata } = isInProcess(provider)
    ? await probeInProcess(provider, configuredIds)
    : await probeEndpoint(provider.base_url, { fetch: fetchFn, timeoutMs, ...(key ? { apiKey: key } : {}) });
  if (!listing.ok) return { ...base, status: 'down', reason: listing.reason, ids: [], served: [] };
  return { ...base, status: 'up', reason: null, ids: listing.ids, served: metadata.models.map(served) };
}

function facts(status: ProviderStatus | undefined, id: string): Omit<ServedModel, 'id'> {
  const found = status?.served.find((s) => s.id === id);
  return { size_bytes: found?.size_bytes ?? null, quantization: found?.quantization ?? null, parameter_size: found?.parameter_size ?? null };
}

/** Configured models (never a key), what each endpoint lists, and the ids nobody configured yet. */
export function modelsView(config: RunnerConfigData, providers: ProviderStatus[]): ModelsView {
  const byName = new Map(providers.map((p) => [p.name, p]));
  const configured: ModelView[] = Object.entries(config.models).map(([label, m]) => {
    const provider = config.providers[m.provider];
    const status = byName.get(m.provider);
    const prices = m.prices ?? provider?.prices ?? null;
    return {
      label,
      provider: m.provider,
      kind: provider?.kind ?? 'unknown',
      model_id: m.id,
      enabled: m.enabled,
      local: provider ? LOCAL_KINDS.has(provider.kind) : false,
      reasoning: m.reasoning,
      context_length: m.context_length ?? null,
      prices: prices ? { ...prices } : null,
      lease_devices: m.lease ? (m.lease.devices ?? [0]) : null,
      availability: !status || status.status === 'down' ? 'unknown' : status.ids.includes(m.id) ? 'listed' : 'missing',
      ...facts(status, m.id),
    };
  });
  const used = new Set(Object.values(config.models).map((m) => `${m.provider}\u0000${m.id}`));
  const discovered = providers.flatMap((p) =>
    p.ids.filter((id) => !used.has(`${p.name}\u0000${id}`)).map((id) => ({ provider: p.name, id, ...facts(p, id) })),
  );
  return { configured, discovered, providers, judge: config.judge?.model ?? null };
}

/** Probes every provider at most once per `ttlMs` (a page refresh must not hammer the endpoints). */
export class ProviderProbe {
  #cache = new Map<string, { at: number; status: ProviderStatus }>();
  constructor(
    private readonly fetchFn: FetchLike,
    private readonly now: () => Date,
    private readonly ttlMs = 30_000,
  ) {}

  async statuses(config: RunnerConfigData, env: Record<string, string | undefined>, refresh: boolean): Promise<ProviderStatus[]> {
    const at = this.now().getTime();
    return Promise.all(
      Object.entries(config.providers).map(async ([name, provider]) => {
        const key = `${name}\u0000${provider.base_url}\u0000${provider.api_key_env ?? ''}`;
        const cached = this.#cache.get(key);
        if (!refresh && cached && at - cached.at < this.ttlMs) return cached.status;
        const ids = Object.values(config.models).filter((m) => m.provider === name).map((m) => m.id);
        const status = await probeProvider(name, provider, env, this.fetchFn, this.now, undefined, ids);
        this.#cache.set(key, { at, status });
        return status;
      }),
    );
  }
}
