import type { FetchLike } from '@crucibleforge/core';
import { discoverServedGgufs, formatParams, ggufSummary, type ModelRoots } from '@crucibleforge/speed';
import { probeEndpoint, type ModelInfo } from '@crucibleforge/timing';
import { resolveModel } from './config';
import { isInProcess, type ProviderConfig, type RunnerConfigData } from './config-schema';
import { probeInProcess } from './in-process';

/** What an endpoint says about one model it serves, where it says it (LM Studio, Ollama, llama.cpp, /v1/models). */
export interface ServedModel {
  id: string;
  size_bytes: number | null;
  /** e.g. Q4_K_M */
  quantization: string | null;
  /** e.g. "8.0B" (Ollama), else from the parameter count. */
  parameter_size: string | null;
  max_context: number | null;
  state: 'loaded' | 'not-loaded' | null;
  /** The model's GGUF found on this machine (a local endpoint's model folders), when the caller looked. */
  gguf?: { path: string; summary: string };
}

/** What one provider's endpoint said when asked for its models (status, models, the GUI's models page). */
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
  /** What it says about the models it serves ([] when down). */
  served: ServedModel[];
  checked_at: string;
}

function parameterSize(info: ModelInfo): string | null {
  if (info.parameter_size) return info.parameter_size;
  return info.parameter_count === null ? null : formatParams(info.parameter_count);
}

function served(info: ModelInfo): ServedModel {
  return { id: info.id, size_bytes: info.size_bytes, quantization: info.quantization, parameter_size: parameterSize(info), max_context: info.max_context, state: info.state };
}

/**
 * The one way a provider is probed: its endpoint's `/models` (and LM Studio's and Ollama's metadata APIs) with
 * the provider's key from `env`. Never throws; a down endpoint says why (`GET …/models answered HTTP 401`).
 */
export async function probeProvider(
  name: string,
  provider: ProviderConfig,
  options: {
    env: Record<string, string | undefined>;
    fetch?: FetchLike;
    now?: () => Date;
    timeoutMs?: number;
    /** The model ids configured on this provider (an in-process provider "serves" exactly those). */
    ids?: readonly string[];
    /** Model folders to find a local endpoint's served GGUFs in (each found file becomes that model's `gguf`). */
    modelRoots?: ModelRoots;
  },
): Promise<ProviderStatus> {
  const keyName = provider.api_key_env ?? null;
  const key = keyName ? options.env[keyName] : undefined;
  const base = {
    name,
    kind: provider.kind,
    base_url: provider.base_url,
    api_key_env: keyName,
    key_set: typeof key === 'string' && key !== '',
    checked_at: (options.now ?? (() => new Date()))().toISOString(),
  };
  const { listing, metadata } = isInProcess(provider)
    ? await probeInProcess(provider, options.ids ?? [])
    : await probeEndpoint(provider.base_url, {
        timeoutMs: options.timeoutMs ?? 4000,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(key ? { apiKey: key } : {}),
      });
  if (!listing.ok) return { ...base, status: 'down', reason: listing.reason, ids: [], served: [] };
  const files = options.modelRoots && !isInProcess(provider) ? await discoverServedGgufs(metadata.models, options.modelRoots, { baseUrl: provider.base_url, providerKind: provider.kind, apiKey: key }) : null;
  const withFile = (m: ServedModel): ServedModel => {
    const f = files?.get(m.id);
    return f ? { ...m, gguf: { path: f.location.path, summary: ggufSummary(f.info) } } : m;
  };
  return { ...base, status: 'up', reason: null, ids: listing.ids, served: metadata.models.map(served).map(withFile) };
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
  discovered: ({ provider: string; id: string } & ReturnType<typeof facts>)[];
  providers: ProviderStatus[];
  judge: string | null;
}

function facts(status: ProviderStatus | undefined, id: string): Pick<ServedModel, 'size_bytes' | 'quantization' | 'parameter_size'> {
  const found = status?.served.find((s) => s.id === id);
  return { size_bytes: found?.size_bytes ?? null, quantization: found?.quantization ?? null, parameter_size: found?.parameter_size ?? null };
}

/** Configured models (never a key), what each endpoint lists, and the ids nobody configured yet. */
export function modelsView(config: RunnerConfigData, providers: readonly ProviderStatus[]): ModelsView {
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
      local: provider ? resolveModel(config, label).local : false,
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
  return { configured, discovered, providers: [...providers], judge: config.judge?.model ?? null };
}
