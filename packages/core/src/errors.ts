const MARKER = Symbol.for('crucibleforge.error');

export interface CrucibleErrorOptions {
  cause?: unknown;
  /** True when the same call may succeed if tried again (rate limits, resets). */
  retryable?: boolean;
  /** Anything a caller may want to show or keep (partial timings, the URL, ...). */
  details?: Record<string, unknown>;
}

/**
 * The one error base of the project. Every package declares a closed union of string codes
 * (e.g. `TIMING_FIRST_TOKEN_TIMEOUT`, `SANDBOX_UNAVAILABLE`) and throws this class (or a subclass)
 * only for misconfiguration, infrastructure failure or programmer error; expected outcomes are values.
 */
export class CrucibleError<Code extends string = string> extends Error {
  readonly code: Code;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;
  readonly [MARKER] = true;

  constructor(code: Code, message: string, options: CrucibleErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CrucibleError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }

  /** Works across duplicate installs of this package (checks a global symbol, not the prototype). */
  static isInstance(value: unknown): value is CrucibleError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** Normalises anything thrown into a CrucibleError, keeping the original as `cause`. */
export function toCrucibleError(value: unknown, code = 'UNKNOWN'): CrucibleError {
  if (CrucibleError.isInstance(value)) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new CrucibleError(code, message, { cause: value });
}
