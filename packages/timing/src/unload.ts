import type { FetchLike } from '@crucibleforge/core';
import { serverRoot } from './metadata';
import type { ProviderKind } from './types';

export interface ReleaseResult {
  released: boolean;
  /** What was asked: lmstudio-unload, ollama-keep-alive-0, or none. */
  method: 'lmstudio-unload' | 'ollama-keep-alive-0' | 'none';
  detail: string;
}

async function call(fetchFn: FetchLike, url: string, apiKey: string | undefined, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetchFn(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  return response.json().catch(() => null);
}

/**
 * Frees the GPU between models through the server's own API — LM Studio's
 * `POST /api/v1/models/unload` for each loaded instance, Ollama's `keep_alive: 0` — never by killing
 * processes. Other servers: nothing to do (use a lease). Never throws; the result says what happened.
 */
export async function releaseModel(
  baseUrl: string,
  model: string,
  options: { providerKind: ProviderKind; fetch?: FetchLike; apiKey?: string },
): Promise<ReleaseResult> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const root = serverRoot(baseUrl);
  try {
    if (options.providerKind === 'lmstudio') {
      const list = (await call(fetchFn, `${root}/api/v1/models`, options.apiKey)) as { models?: { key?: string; loaded_instances?: { id?: string }[] }[] } | null;
      const instances = (list?.models ?? []).filter((m) => m.key === model).flatMap((m) => m.loaded_instances ?? []);
      const ids = instances.map((i) => i.id).filter((id): id is string => typeof id === 'string');
      if (ids.length === 0) return { released: false, method: 'lmstudio-unload', detail: `${model} is not loaded` };
      for (const id of ids) await call(fetchFn, `${root}/api/v1/models/unload`, options.apiKey, { instance_id: id });
      return { released: true, method: 'lmstudio-unload', detail: `unloaded ${ids.join(', ')}` };
    }
    if (options.providerKind === 'ollama') {
      await call(fetchFn, `${root}/api/generate`, options.apiKey, { model, keep_alive: 0 });
      return { released: true, method: 'ollama-keep-alive-0', detail: `asked Ollama to unload ${model}` };
    }
  } catch (error) {
    return { released: false, method: options.providerKind === 'lmstudio' ? 'lmstudio-unload' : 'ollama-keep-alive-0', detail: (error as Error).message };
  }
  return { released: false, method: 'none', detail: `${options.providerKind} has no unload API; use a lease to free the GPU` };
}
