import { isTableError, tableError, type CrucibleError, type CrucibleErrorOptions, type ErrorTable } from '@crucibleforge/core';

/** What can go wrong in the in-process engine (expected outcomes of a request are values, not these). */
export type EngineErrorCode =
  /** No file at the GGUF path, or no readable GGUF header there (the message names it). */
  | 'ENGINE_GGUF_MISSING'
  /** The file exists but llama.cpp cannot load it (not a GGUF, an unsupported architecture, too little memory). */
  | 'ENGINE_LOAD_FAILED'
  /** The llama.cpp binary could not start (no prebuilt binary for this platform; nothing is downloaded or built). */
  | 'ENGINE_UNAVAILABLE'
  /** Bad options: context, threads, batch, token counts. */
  | 'ENGINE_BAD_OPTIONS'
  /** The prompt does not fit the context window. */
  | 'ENGINE_CONTEXT_OVERFLOW'
  /** The request was cancelled (signal or `abort()`). */
  | 'ENGINE_ABORTED'
  /** The engine failed during generation. */
  | 'ENGINE_GENERATION_FAILED'
  /** The engine was used after `close()`. */
  | 'ENGINE_CLOSED';

/** Kind and retryability of every code (core's error table shape: the CLI's exit code and the GUI's status follow the kind). */
export const ENGINE_ERRORS = {
  ENGINE_GGUF_MISSING: { kind: 'config', retryable: false },
  ENGINE_LOAD_FAILED: { kind: 'endpoint', retryable: false },
  ENGINE_UNAVAILABLE: { kind: 'endpoint', retryable: false },
  ENGINE_BAD_OPTIONS: { kind: 'config', retryable: false },
  ENGINE_CONTEXT_OVERFLOW: { kind: 'endpoint', retryable: false },
  ENGINE_ABORTED: { kind: 'cancelled', retryable: false },
  ENGINE_GENERATION_FAILED: { kind: 'endpoint', retryable: false },
  ENGINE_CLOSED: { kind: 'internal', retryable: false },
} as const satisfies ErrorTable<EngineErrorCode>;

export const ENGINE_ERROR_CODES = Object.keys(ENGINE_ERRORS) as EngineErrorCode[];

export type EngineError = CrucibleError<EngineErrorCode>;

export function engineError(code: EngineErrorCode, message: string, options: Omit<CrucibleErrorOptions, 'kind'> = {}): EngineError {
  return tableError(ENGINE_ERRORS, code, message, options);
}

/** True for an engine error (one of `codes` when given). */
export function isEngineError(value: unknown, ...codes: EngineErrorCode[]): value is EngineError {
  return isTableError(ENGINE_ERRORS, value, codes);
}
