/**
 * The flags `speed` and `bench-llm` share about the model's weights and hardware: `--gguf`, `--gpu`,
 * `--bandwidth-gbs`, `--refresh-bandwidth`, and the in-process engine's `--threads`, `--ctx-size`,
 * `--batch-size` (a `--gguf FILE` with no `--base-url` runs in this process). The work is the packages':
 * the engine opens the GGUF, speed discovers files and holds a local model to this host's roofline.
 */
import { resolve } from 'node:path';
import type { OpenedEngine } from '@crucibleforge/engine-llamacpp';
import { bandwidthLine, discoverServedGguf, defaultModelRoots, ggufSummary, hostRooflineOptions, isLocalEndpoint, readGgufInfo, type GgufInfo, type SpeedSettings } from '@crucibleforge/speed';
import type { ProviderKind } from '@crucibleforge/timing';
import { intFlag, numberFlag } from './args';
import { UsageError, type CliIO } from './io';
import { userDir } from './runner-context';

export const HARDWARE_OPTIONS = {
  gguf: { type: 'string' },
  gpu: { type: 'string' },
  'bandwidth-gbs': { type: 'string' },
  'refresh-bandwidth': { type: 'boolean' },
  threads: { type: 'string' },
  'ctx-size': { type: 'string' },
  'batch-size': { type: 'string' },
} as const;

export const ENGINE_USAGE = `  --threads N           in-process engine (--gguf without --base-url): CPU threads (default: llama.cpp's choice)
  --ctx-size N          in-process engine: context window in tokens (default: the model's, at most 4096)
  --batch-size N        in-process engine: prompt tokens per batch (default: min(512, context))`;

export interface HardwareValues {
  gguf?: string | undefined;
  gpu?: string | undefined;
  'bandwidth-gbs'?: string | undefined;
  'refresh-bandwidth'?: boolean | undefined;
  threads?: string | undefined;
  'ctx-size'?: string | undefined;
  'batch-size'?: string | undefined;
}

/** What the roofline knows: the GGUF, the GPU or bandwidth named, and this host's roofline for a model on it. */
export type Hardware = Pick<SpeedSettings, 'gguf' | 'gpu' | 'bandwidthGbs' | 'hostBandwidth' | 'hostCacheBytes'>;

/** The engine's options from --threads, --ctx-size and --batch-size (validated). */
export function engineOptions(values: HardwareValues): { threads?: number; contextSize?: number; batchSize?: number } {
  return {
    ...(values.threads === undefined ? {} : { threads: intFlag('threads', values.threads, 1) }),
    ...(values['ctx-size'] === undefined ? {} : { contextSize: intFlag('ctx-size', values['ctx-size'], 64) }),
    ...(values['batch-size'] === undefined ? {} : { batchSize: intFlag('batch-size', values['batch-size'], 1) }),
  };
}

/** Opens `--gguf` in process (imported only then: HTTP use never loads the native library); a bad file is a usage error. */
export async function openEngine(io: CliIO, values: HardwareValues, model?: string): Promise<OpenedEngine> {
  const { openGgufEngine, isEngineError } = await import('@crucibleforge/engine-llamacpp');
  try {
    return await openGgufEngine({ gguf: resolve(io.cwd, values.gguf!), ...(model ? { model } : {}), ...engineOptions(values) });
  } catch (error) {
    if (isEngineError(error, 'ENGINE_GGUF_MISSING')) throw new UsageError(`--gguf: ${error.message}`);
    throw error;
  }
}

/**
 * The weights and hardware for the roofline: the opened engine's GGUF, else `--gguf`'s header, else the
 * served model's file found on this machine; a model on this machine with no GPU or bandwidth named is held
 * to the host's measured bandwidth (probed, or read from the cache, only when the roofline needs it).
 */
export async function hardwareFlags(
  values: HardwareValues,
  io: CliIO,
  target: { model: string; opened?: OpenedEngine | null; endpoint?: { baseUrl: string; providerKind: ProviderKind; apiKey?: string | undefined } | null; say?: (line: string) => void },
): Promise<Hardware> {
  const bandwidthGbs = numberFlag('bandwidth-gbs', values['bandwidth-gbs']) ?? null;
  let gguf: GgufInfo | null = target.opened?.gguf ?? null;
  if (!gguf && values.gguf !== undefined) {
    try {
      gguf = await readGgufInfo(resolve(io.cwd, values.gguf));
    } catch (error) {
      throw new UsageError(`--gguf: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else if (!gguf && target.endpoint) {
    const roots = await defaultModelRoots({ home: io.env['HOME'], ollamaModels: io.env['OLLAMA_MODELS'] });
    const found = await discoverServedGguf(target.model, roots, target.endpoint);
    if (found) target.say?.(`found the model's GGUF: ${found.location.path} (${found.location.detail}): ${ggufSummary(found.info)}`);
    gguf = found?.info ?? null;
  }
  const gpu = values.gpu ?? null;
  const local = !gpu && bandwidthGbs === null && (Boolean(target.opened) || (target.endpoint ? isLocalEndpoint(target.endpoint.baseUrl) : false));
  const roofline = local
    ? await hostRooflineOptions({
        cacheDir: userDir(io.env, 'CACHE'),
        refresh: values['refresh-bandwidth'] === true,
        ...(target.say ? { onReading: (r) => target.say!(bandwidthLine(r)) } : {}),
      })
    : {};
  return { gguf, gpu, bandwidthGbs, ...roofline };
}
