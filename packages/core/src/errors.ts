const MARKER = Symbol.for('crucibleforge.error');

/**
 * What kind of failure a code is, for whoever must act on it: the CLI's exit code and the GUI's HTTP status
 * are exhaustive switches over it (never a regex over codes). `config`: the user's files, flags or input are
 * wrong; `not-found`: a named run does not exist; `sandbox`: no usable sandbox for model-written code;
 * `endpoint`: a model server, provider or lease server failed; `busy`: someone else holds what is needed;
 * `storage`: results cannot be read or written; `judge`: the judge may not or cannot score; `cancelled`: the
 * caller stopped it; `internal`: a bug or anything else.
 */
export type ErrorKind = 'config' | 'not-found' | 'sandbox' | 'endpoint' | 'busy' | 'storage' | 'judge' | 'cancelled' | 'internal';

export const ERROR_KINDS: readonly ErrorKind[] = ['config', 'not-found', 'sandbox', 'endpoint', 'busy', 'storage', 'judge', 'cancelled', 'internal'];

/** One row of a package's error table: the kind of failure and whether the same call may succeed later. */
export interface ErrorSpec {
  readonly kind: ErrorKind;
  readonly retryable: boolean;
}

/** Every code of a package with its spec: `{ … } as const satisfies ErrorTable<XErrorCode>` keeps it exhaustive. */
export type ErrorTable<Code extends string> = { readonly [K in Code]: ErrorSpec };

export interface CrucibleErrorOptions {
  cause?: unknown;
  /** The kind of failure (default `internal`; package errors take it from their table). */
  kind?: ErrorKind;
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
export class CrucibleError<Code extends string = string, Details extends object = Record<string, unknown>> extends Error {
  readonly code: Code;
  readonly kind: ErrorKind;
  readonly retryable: boolean;
  readonly details: Details;
  readonly [MARKER] = true;

  constructor(code: Code, message: string, options: Omit<CrucibleErrorOptions, 'details'> & { details?: Details } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CrucibleError';
    this.code = code;
    this.kind = options.kind ?? 'internal';
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? ({} as Details);
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

/**
 * A package's error constructor: a CrucibleError whose kind and default retryability come from the table
 * (so every code has both, decided once); `options.retryable` overrides for one instance.
 */
export function tableError<Code extends string>(table: ErrorTable<Code>, code: Code, message: string, options: Omit<CrucibleErrorOptions, 'kind'> = {}): CrucibleError<Code> {
  const spec = table[code];
  return new CrucibleError<Code>(code, message, { ...options, kind: spec.kind, retryable: options.retryable ?? spec.retryable });
}

/** The guard behind every package's `isXError`: a CrucibleError with a code of `table` (one of `codes` when given). */
export function isTableError<Code extends string>(table: ErrorTable<Code>, value: unknown, codes: readonly Code[] = []): value is CrucibleError<Code> {
  if (!CrucibleError.isInstance(value) || !Object.hasOwn(table, value.code)) return false;
  return codes.length === 0 || codes.includes(value.code as Code);
}

/** Codes core itself throws. */
export type CoreErrorCode = 'UNKNOWN' | 'STATS_INVALID_ARGUMENT';

export const CORE_ERRORS = {
  UNKNOWN: { kind: 'internal', retryable: false },
  STATS_INVALID_ARGUMENT: { kind: 'internal', retryable: false },
} as const satisfies ErrorTable<CoreErrorCode>;

/** The process exit codes of the apps: 0 done, 1 failed, 2 bad input (usage, config, unknown names), 3 no sandbox, 130 interrupted (Ctrl-C, SIGTERM). */
export const EXIT_CODES = { ok: 0, failed: 1, usage: 2, noSandbox: 3, interrupted: 130 } as const;

/** The exit code of a kind of error: the one exhaustive switch over ErrorKind the apps use (every package's table names a kind). */
export function exitCodeOf(kind: ErrorKind): number {
  switch (kind) {
    case 'config':
    case 'not-found':
      return EXIT_CODES.usage;
    case 'sandbox':
      return EXIT_CODES.noSandbox;
    case 'cancelled':
      return EXIT_CODES.interrupted;
    case 'endpoint':
    case 'busy':
    case 'storage':
    case 'judge':
    case 'internal':
      return EXIT_CODES.failed;
  }
}
