import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CATEGORIES, didYouMean, type Category } from '@crucibleforge/core';
import { UsageError } from './io';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, strict, with every failure turned into a UsageError. */
export type ParsedCommandArgs<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>
>;

export function parseCommandArgs<const O extends Options>(
  args: string[],
  options: O,
  allowPositionals = true,
): ParsedCommandArgs<O> {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const unknown = /^Unknown option '(--?[^']+)'/.exec(message)?.[1];
    if (unknown) {
      const guess = didYouMean(unknown.replace(/^-+/, ''), Object.keys(options));
      throw new UsageError(`unknown option ${unknown}${guess ? ` (did you mean --${guess}?)` : ''}`);
    }
    throw new UsageError(message);
  }
}

/** Options that each take a string value (`--name VALUE`), for a parseCommandArgs options table. */
export function stringFlags<const K extends string>(...names: K[]): { readonly [P in K]: { readonly type: 'string' } } {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }])) as { readonly [P in K]: { readonly type: 'string' } };
}

/** Parses a flag that must be a positive integer, naming the flag when it is not. */
export function intFlag(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  return parsed;
}

/** Splits a comma list flag (`--models a,b`) into trimmed, non-empty items. */
export function listFlag(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** Parses a flag that must be a positive number (seconds, GB/s), naming the flag when it is not. */
export function numberFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number, got "${value}"`);
  return n;
}

/** A flag with a closed set of values (`--kind`, `--reasoning`), else `fallback`. */
export function oneOfFlag<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

/** The secret an `--api-key-env VAR`-style flag names, read from `env`; a named but unset variable is a usage error. */
export function envSecretFlag(env: Record<string, string | undefined>, name: string, variable: string | undefined): string | undefined {
  if (variable === undefined) return undefined;
  const value = env[variable];
  if (value === undefined || value === '') throw new UsageError(`--${name} ${variable}: that environment variable is not set or empty`);
  return value;
}

/** `--categories a,b` checked against the known categories; null when not given (all of them). */
export function categoriesFlag(value: string | undefined): Category[] | null {
  const list = listFlag(value);
  if (!list) return null;
  for (const c of list) {
    if (!(CATEGORIES as readonly string[]).includes(c)) throw new UsageError(`unknown category "${c}" (one of ${CATEGORIES.join(', ')})`);
  }
  return list as Category[];
}
