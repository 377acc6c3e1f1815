import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '@crucibleforge/core';
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
