/**
 * The flags `speed` and `bench-llm` share about the model's weights and hardware: `--gguf`, `--gpu`,
 * `--bandwidth-gbs`, `--refresh-bandwidth`, and the in-process engine's `--threads`, `--ctx-size`,
 * `--batch-size` (a `--gguf FILE` with no `--base-url` runs in this process). The work is the packages':
 * the engine opens the GGUF, speed discovers files and holds a local model to this host's roofline.
 */
import { resolve } from 'node:path';
import { userDir } from '@crucibleforge/core';
import type { OpenedEngine } from '@crucibleforge/engine-llamacpp';
import { isSpeedError, resolveHardware, type Hardware, type ServedEndpoint } from '@crucibleforge/speed';
import { intFlag, numberFlag, stringFlags } from './args';
import { UsageError, type CliIO } from './io';

export const HARDWARE_OPTIONS = { ...stringFlags('gguf', 'gpu', 'bandwidth-gbs', 'threads', 'ctx-size', 'batch-size'), 'refresh-bandwidth': { type: 'boolean' } } as const;

export const ENGINE_USAGE = `  --threads N           in-process engine (--gguf without --base-url): CPU threads (default: llama.cpp's choice)
  --ctx-size N          in-process engine: context window in tokens (default: the model's, at most 4096)
  --batch-size N        in-process engine: prompt tokens per batch (default: min(512, context))`;

export type HardwareValues = { [K in Exclude<keyof typeof HARDWARE_OPTIONS, 'refresh-bandwidth'>]?: string | undefined } & { 'refresh-bandwidth'?: boolean | undefined };

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

/** The weights and hardware for the roofline (speed's resolveHardware) from the flags; a bad --gguf is a usage error. */
export async function hardwareFlags(
  values: HardwareValues,
  io: CliIO,
  target: { model: string; opened?: OpenedEngine | null; endpoint?: ServedEndpoint | null; say?: (line: string) => void },
): Promise<Hardware> {
  try {
    return await resolveHardware({
      model: target.model,
      gguf: target.opened?.gguf ?? (values.gguf === undefined ? undefined : resolve(io.cwd, values.gguf)),
      gpu: values.gpu,
      bandwidthGbs: numberFlag('bandwidth-gbs', values['bandwidth-gbs']),
      endpoint: target.endpoint,
      inProcess: Boolean(target.opened),
      home: io.env['HOME'],
      ollamaModels: io.env['OLLAMA_MODELS'],
      cacheDir: userDir(io.env, 'CACHE'),
      refresh: values['refresh-bandwidth'] === true,
      ...(target.say ? { say: target.say } : {}),
    });
  } catch (error) {
    if (isSpeedError(error, 'SPEED_GGUF')) throw new UsageError(`--gguf: ${error.message}`);
    throw error;
  }
}
