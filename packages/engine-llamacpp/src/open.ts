/**
 * Opening a GGUF for `speed`, `bench-llm` and the demo: its header first (a missing or broken file is
 * ENGINE_GGUF_MISSING naming the path), then the weights; and the llama-bench pp/tg settings fitted to the
 * context. Nothing is downloaded.
 */
import { readGgufInfo, type GgufInfo } from '@crucibleforge/speed';
import { createLlamaCppEngine, type EngineInfo, type LlamaCppEngine, type LlamaCppEngineOptions } from './engine';
import { engineError } from './errors';
import type { PpTgOptions, PpTgReport } from './bench';

export interface OpenedEngine {
  engine: LlamaCppEngine;
  info: EngineInfo;
  gguf: GgufInfo;
}

/** Reads the header, creates the engine and loads it; the caller closes `engine`. */
export async function openGgufEngine(options: LlamaCppEngineOptions): Promise<OpenedEngine> {
  let gguf: GgufInfo;
  try {
    gguf = await readGgufInfo(options.gguf);
  } catch (error) {
    throw engineError('ENGINE_GGUF_MISSING', error instanceof Error ? error.message : String(error), { cause: error, details: { gguf: options.gguf } });
  }
  const engine = createLlamaCppEngine(options);
  try {
    return { engine, info: await engine.load(), gguf };
  } catch (error) {
    await engine.close();
    throw error;
  }
}

/** One line saying what the engine runs with. */
export function engineLine(info: EngineInfo): string {
  return `in-process engine: ${info.engine} · ${info.gguf} · context ${info.context_size} · ${info.threads} thread${info.threads === 1 ? '' : 's'} · batch ${info.batch_size} · loaded in ${info.load_s.toFixed(2)} s`;
}

/** pp/tg cut to a context of `room` tokens; `cut` says whether anything was cut. */
export function fitPpTg<T extends Required<Pick<PpTgOptions, 'promptTokens' | 'generateTokens'>>>(settings: T, room: number): { fitted: T; cut: boolean } {
  const fitted = { ...settings, promptTokens: Math.min(settings.promptTokens, room), generateTokens: Math.min(settings.generateTokens, room - 1) };
  return { fitted, cut: fitted.promptTokens !== settings.promptTokens || fitted.generateTokens !== settings.generateTokens };
}

/**
 * llama-bench's pp/tg on the opened engine, fitted to its context (`onCut` says what was cut); null when both
 * counts are 0 (skipped).
 */
export async function runPpTg(
  opened: OpenedEngine,
  settings: Required<Pick<PpTgOptions, 'promptTokens' | 'generateTokens' | 'repetitions'>>,
  onCut?: (line: string) => void,
): Promise<PpTgReport | null> {
  if (settings.promptTokens === 0 && settings.generateTokens === 0) return null;
  const room = opened.info.context_size;
  const { fitted, cut } = fitPpTg(settings, room);
  if (cut) onCut?.(`pp/tg cut to the ${room}-token context: pp ${fitted.promptTokens}, tg ${fitted.generateTokens} (raise --ctx-size)`);
  return opened.engine.benchmark(fitted);
}
