import type { FetchLike } from '@crucibleforge/core';
import { LOCAL_KINDS, probeProvider, type ProviderStatus, type RunnerConfigData, type ServedModel } from '@crucibleforge/runner';

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
        const status = await probeProvider(name, provider, { env, fetch: this.fetchFn, now: this.now });
        this.#cache.set(key, { at, status });
        return status;
      }),
    );
  }
}
