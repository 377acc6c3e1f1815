/**
 * `--gguf FILE` with no `--base-url`: the model runs in this process on llama.cpp (node-llama-cpp), so
 * `speed` and `bench-llm` need no server. The flags, opening the engine, and the llama-bench style pp/tg.
 */
import { resolve } from 'node:path';
import { CrucibleError } from '@crucibleforge/core';
// Types only: the engine (and its native library) is imported when a GGUF is actually run, never for HTTP use.
import type { EngineInfo, LlamaCppEngine, PpTgReport } from '@crucibleforge/engine-llamacpp';
import { readGgufInfo, type GgufInfo } from '@crucibleforge/timing';
import { intFlag } from './args';
import { UsageError, type CliIO } from './io';

/** The parseArgs options both commands add for the in-process engine. */
export const ENGINE_OPTIONS = {
  threads: { type: 'string' },
  'ctx-size': { type: 'string' },
  'batch-size': { type: 'string' },
} as const;

export const ENGINE_USAGE = `  --threads N           in-process engine (--gguf without --base-url): CPU threads (default: llama.cpp's choice)
  --ctx-size N          in-process engine: context window in tokens (default: the model's, at most 4096)
  --batch-size N        in-process engine: prompt tokens per batch (default: min(512, context))`;

export interface EngineFlags {
  threads?: string | undefined;
  'ctx-size'?: string | undefined;
  'batch-size'?: string | undefined;
}

export interface OpenedEngine {
  engine: LlamaCppEngine;
  info: EngineInfo;
  gguf: GgufInfo;
}

/**
 * Opens the GGUF in process: its header first (a missing or broken file is a usage error naming the path),
 * then the weights. Nothing is downloaded. The caller closes `engine`.
 */
export async function openEngine(io: CliIO, file: string, flags: EngineFlags, model?: string): Promise<OpenedEngine> {
  const path = resolve(io.cwd, file);
  let gguf: GgufInfo;
  try {
    gguf = await readGgufInfo(path);
  } catch (error) {
    throw new UsageError(`--gguf: ${error instanceof Error ? error.message : String(error)}`);
  }
  const threads = flags.threads === undefined ? undefined : intFlag('threads', flags.threads, 1);
  const contextSize = flags['ctx-size'] === undefined ? undefined : intFlag('ctx-size', flags['ctx-size'], 64);
  const batchSize = flags['batch-size'] === undefined ? undefined : intFlag('batch-size', flags['batch-size'], 1);
  const { createLlamaCppEngine } = await import('@crucibleforge/engine-llamacpp');
  const engine = createLlamaCppEngine({
    gguf: path,
    ...(model ? { model } : {}),
    ...(threads ? { threads } : {}),
    ...(contextSize ? { contextSize } : {}),
    ...(batchSize ? { batchSize } : {}),
  });
  try {
    return { engine, info: await engine.load(), gguf };
  } catch (error) {
    await engine.close();
    if (CrucibleError.isInstance(error) && error.code === 'ENGINE_GGUF_MISSING') throw new UsageError(`--gguf: ${error.message}`);
    throw error;
  }
}

export function engineLine(info: EngineInfo): string {
  return `in-process engine: ${info.engine} · ${info.gguf} · context ${info.context_size} · ${info.threads} thread${info.threads === 1 ? '' : 's'} · batch ${info.batch_size} · loaded in ${info.load_s.toFixed(2)} s`;
}

/** llama-bench's `-p N -n M -r R`, validated; `--pp 0 --tg 0` skips the measurement. */
export function ppTgSettings(values: { pp?: string | undefined; tg?: string | undefined; repetitions?: string | undefined }) {
  return {
    promptTokens: intFlag('pp', values.pp, 512, 0),
    generateTokens: intFlag('tg', values.tg, 128, 0),
    repetitions: intFlag('repetitions', values.repetitions, 5),
  };
}

/** Runs pp/tg unless both are 0 and prints llama-bench's table; null when skipped. */
export async function runPpTg(opened: OpenedEngine, settings: ReturnType<typeof ppTgSettings>, io: CliIO): Promise<PpTgReport | null> {
  if (settings.promptTokens === 0 && settings.generateTokens === 0) return null;
  const room = opened.info.context_size;
  const fitted = {
    ...settings,
    promptTokens: Math.min(settings.promptTokens, room),
    generateTokens: Math.min(settings.generateTokens, room - 1),
  };
  if (fitted.promptTokens !== settings.promptTokens || fitted.generateTokens !== settings.generateTokens) {
    io.stderr.write(`pp/tg cut to the ${room}-token context: pp ${fitted.promptTokens}, tg ${fitted.generateTokens} (raise --ctx-size)\n`);
  }
  const report = await opened.engine.benchmark(fitted);
  const { renderPpTg } = await import('@crucibleforge/engine-llamacpp');
  io.stdout.write(renderPpTg(report));
  return report;
}
