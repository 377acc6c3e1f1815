import { isTableError, tableError, type CrucibleError, type CrucibleErrorOptions, type ErrorTable } from '@crucibleforge/core';

/** Every code the sandbox throws (a program that fails, times out or runs out of memory is a result, not a throw). */
export type SandboxErrorCode =
  /** bubblewrap is missing or unusable and running unsandboxed was not allowed. */
  | 'SANDBOX_UNAVAILABLE'
  /** A bad run request (empty source, unknown language, a limit out of range). */
  | 'SANDBOX_BAD_REQUEST'
  /** bwrap or the limit wrapper could not start the program. */
  | 'SANDBOX_FAILED';

export const SANDBOX_ERRORS = {
  SANDBOX_UNAVAILABLE: { kind: 'sandbox', retryable: false },
  SANDBOX_BAD_REQUEST: { kind: 'internal', retryable: false },
  SANDBOX_FAILED: { kind: 'sandbox', retryable: false },
} as const satisfies ErrorTable<SandboxErrorCode>;

export function sandboxError(code: SandboxErrorCode, message: string, options: Omit<CrucibleErrorOptions, 'kind'> = {}): CrucibleError<SandboxErrorCode> {
  return tableError(SANDBOX_ERRORS, code, message, options);
}

/** True for a sandbox error (one of `codes` when given). */
export function isSandboxError(value: unknown, ...codes: SandboxErrorCode[]): value is CrucibleError<SandboxErrorCode> {
  return isTableError(SANDBOX_ERRORS, value, codes);
}
