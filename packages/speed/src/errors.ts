import { isTableError, tableError, type CrucibleError, type ErrorTable } from '@crucibleforge/core';

/** Every code this package throws (request failures are recorded in their run, or are the client's TIMING_* codes). */
export type SpeedErrorCode =
  /** A GGUF file is missing or unreadable; names the path. */
  | 'SPEED_GGUF'
  /** Neither a completer nor a base URL was given. */
  | 'SPEED_BAD_OPTIONS';

export const SPEED_ERRORS = {
  SPEED_GGUF: { kind: 'config', retryable: false },
  SPEED_BAD_OPTIONS: { kind: 'config', retryable: false },
} as const satisfies ErrorTable<SpeedErrorCode>;

export function speedError(code: SpeedErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}): CrucibleError<SpeedErrorCode> {
  return tableError(SPEED_ERRORS, code, message, options);
}

export function isSpeedError(value: unknown, ...codes: SpeedErrorCode[]): value is CrucibleError<SpeedErrorCode> {
  return isTableError(SPEED_ERRORS, value, codes);
}
