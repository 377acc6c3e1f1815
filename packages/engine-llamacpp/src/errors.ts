import { CrucibleError, type CrucibleErrorOptions } from '@crucibleforge/core';

/** What can go wrong in the in-process engine (expected outcomes of a request are values, not these). */
export const ENGINE_ERROR_CODES = [
  /** No file at the GGUF path (the message names it). */
  'ENGINE_GGUF_MISSING',
  /** The file exists but llama.cpp cannot load it (not a GGUF, an unsupported architecture, too little memory). */
  'ENGINE_LOAD_FAILED',
  /** The llama.cpp binary could not start (no prebuilt binary for this platform; nothing is downloaded or built). */
  'ENGINE_UNAVAILABLE',
  /** Bad options: context, threads, batch, token counts. */
  'ENGINE_BAD_OPTIONS',
  /** The prompt does not fit the context window. */
  'ENGINE_CONTEXT_OVERFLOW',
  /** The request was cancelled (signal or `abort()`). */
  'ENGINE_ABORTED',
  /** The engine failed during generation. */
  'ENGINE_GENERATION_FAILED',
  /** The engine was used after `close()`. */
  'ENGINE_CLOSED',
] as const;
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];
export type EngineError = CrucibleError<EngineErrorCode>;

export function engineError(code: EngineErrorCode, message: string, options: CrucibleErrorOptions = {}): EngineError {
  return new CrucibleError(code, message, options);
}

export function isEngineError(value: unknown): value is EngineError {
  return CrucibleError.isInstance(value) && (ENGINE_ERROR_CODES as readonly string[]).includes(value.code);
}
