import type { ChatRequest } from '@crucibleforge/core';
import { readGgufInfo, type GgufInfo } from '@crucibleforge/speed';
import type { EndpointProbe, ModelInfo, TimedStream } from '@crucibleforge/timing';
import type { ClientWorld, ModelClient } from './client';
import type { InProcessProviderConfig } from './config-schema';

type Engine = import('@crucibleforge/engine-llamacpp').LlamaCppEngine;

/**
 * A `llamacpp-inprocess` provider's client: the in-process llama.cpp engine on its GGUF, imported and
 * loaded on the first request (so runs without such a provider never load the native library). A missing
 * file fails that request with ENGINE_GGUF_MISSING naming the path; `close()` frees the weights.
 */
export function inProcessClient(provider: InProcessProviderConfig, modelId: string, world: ClientWorld): ModelClient {
  let engine: Promise<Engine> | null = null;
  const open = (): Promise<Engine> => {
    engine ??= import('@crucibleforge/engine-llamacpp').then(({ createLlamaCppEngine }) =>
      createLlamaCppEngine({
        gguf: provider.gguf,
        model: modelId,
        ...(provider.context ? { contextSize: provider.context } : {}),
        ...(provider.threads ? { threads: provider.threads } : {}),
        ...(provider.batch ? { batchSize: provider.batch } : {}),
        ...(world.clock ? { clock: world.clock } : {}),
      }),
    );
    return engine;
  };
  const completeTimed = async (request: ChatRequest) => (await open()).completeTimed(request);
  return {
    model: modelId,
    transport: 'in-process',
    completeTimed,
    complete: async (request) => (await completeTimed(request)).reply,
    stream: (request) => lazyStream(open, request),
    close: async () => {
      const opened = engine;
      engine = null;
      if (opened) await (await opened).close();
    },
  };
}

/** The engine's stream once it has loaded: events pass through, `abort()` before the load cancels the request. */
function lazyStream(open: () => Promise<Engine>, request: ChatRequest): TimedStream {
  const controller = new AbortController();
  const signal = request.signal ? AbortSignal.any([request.signal, controller.signal]) : controller.signal;
  const inner = open().then((e) => e.stream({ ...request, signal }));
  // the result's rejection is the caller's to see (through `result`), never an unhandled one here
  const result = inner.then((s) => s.result);
  result.catch(() => undefined);
  return {
    result,
    abort: (reason?: string) => {
      controller.abort(reason);
      void inner.then((s) => s.abort(reason), () => undefined);
    },
    async *[Symbol.asyncIterator]() {
      yield* await inner;
    },
  };
}

/** The context an in-process model runs with: models.yaml's `context`, else the GGUF's (capped at 4096, as the engine does). */
export async function inProcessMetadata(provider: InProcessProviderConfig): Promise<{ context_length: number | null }> {
  if (provider.context) return { context_length: provider.context };
  const info = await readGgufInfo(provider.gguf).catch(() => null);
  return { context_length: info?.context_length ? Math.min(4096, info.context_length) : null };
}

/** A GGUF header as the model metadata an endpoint would report (size, quantisation, parameters, experts). */
export function ggufModelInfo(id: string, info: GgufInfo, context: number | null): ModelInfo {
  return {
    id,
    arch: info.architecture,
    quantization: info.quantization,
    state: null,
    max_context: context ?? info.context_length,
    size_bytes: info.file_size_bytes,
    parameter_count: info.parameter_count,
    parameter_size: null,
    expert_count: info.expert_count,
    expert_used_count: info.expert_used_count,
    sources: ['gguf'],
  };
}

/**
 * What `status`, `models` and the GUI show for an in-process provider, in the shape of an endpoint probe:
 * "up" with the configured ids when its GGUF reads, "down" naming the path when it does not.
 */
export async function probeInProcess(provider: InProcessProviderConfig, ids: readonly string[]): Promise<EndpointProbe> {
  try {
    const info = await readGgufInfo(provider.gguf);
    return {
      listing: { ok: true, ids: [...ids] },
      metadata: { base_url: provider.base_url, sources: ['gguf'], models: ids.map((id) => ggufModelInfo(id, info, provider.context ?? null)) },
    };
  } catch (error) {
    return { listing: { ok: false, reason: error instanceof Error ? error.message : String(error) }, metadata: { base_url: provider.base_url, sources: [], models: [] } };
  }
}
