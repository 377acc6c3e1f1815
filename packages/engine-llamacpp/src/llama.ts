import { stat } from 'node:fs/promises';
import { getLlama, LlamaLogLevel, type Llama } from 'node-llama-cpp';
import { engineError } from './errors';

/** The engine this package pins (exactly: newer releases break installs on Node 20 here). */
export const ENGINE_NAME = 'node-llama-cpp 3.21.1 (llama.cpp, CPU)';

/** The last llama.cpp log lines, for an error message when a load fails (the library never prints them). */
const recentLogs: string[] = [];
function keepLog(level: LlamaLogLevel, message: string): void {
  if (level !== LlamaLogLevel.error && level !== LlamaLogLevel.warn && level !== LlamaLogLevel.fatal) return;
  recentLogs.push(message.trim());
  if (recentLogs.length > 8) recentLogs.shift();
}

export function lastEngineLogs(): string[] {
  return [...recentLogs];
}

let shared: Promise<Llama> | null = null;

/**
 * The process's llama.cpp binding: the prebuilt CPU binary from the registry package, never a download
 * nor a source build (`build: 'never'`, `skipDownload`). Thread counts are set per context. llama.cpp's
 * own logging goes to a small buffer, not the terminal.
 */
export function sharedLlama(): Promise<Llama> {
  shared ??= getLlama({
    gpu: false,
    build: 'never',
    skipDownload: true,
    usePrebuiltBinaries: true,
    progressLogs: false,
    maxThreads: 0,
    logLevel: LlamaLogLevel.warn,
    logger: keepLog,
  }).catch((error: unknown) => {
    shared = null;
    throw engineError('ENGINE_UNAVAILABLE', `llama.cpp could not start (${ENGINE_NAME}; nothing is downloaded or built): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  });
  return shared;
}

/** Throws ENGINE_GGUF_MISSING naming the path when there is no file there. */
export async function requireGgufFile(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a regular file');
    return info.size;
  } catch (error) {
    throw engineError('ENGINE_GGUF_MISSING', `GGUF file not found: ${path} (${(error as Error).message})`, { cause: error, details: { path } });
  }
}
