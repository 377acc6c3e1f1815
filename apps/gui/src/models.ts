import type { FetchLike } from '@crucibleforge/core';
import { probeProvider, type ProviderStatus, type RunnerConfigData } from '@crucibleforge/runner';

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
        const status = await probeProvider(name, provider, { env, fetch: this.fetchFn, now: this.now, ids });
        this.#cache.set(key, { at, status });
        return status;
      }),
    );
  }
}
