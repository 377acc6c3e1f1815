/** Where the cases are: one rule for every command that reads them (run, all, gui, demo, status, bench-llm, cases). */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASE_SET_MARKER, caseSetDir } from '@crucibleforge/case-set';
import { UsageError, type CliIO } from './io';

/** The case set shipped in `@crucibleforge/case-set` (found by package resolution), or null when it is not installed whole. */
export function shippedCasesDir(): string | null {
  return existsSync(join(caseSetDir, CASE_SET_MARKER)) ? caseSetDir : null;
}

/**
 * The cases directory to use when none is given: the nearest `cases/` holding `schema.json`, looking up
 * from the working directory first, then from this module's file (the checkout the CLI runs from).
 */
export function defaultCasesDir(cwd: string, moduleUrl: string = import.meta.url): string | null {
  const starts = [resolve(cwd)];
  if (moduleUrl.startsWith('file:')) starts.push(dirname(fileURLToPath(moduleUrl)));
  for (const start of starts) {
    for (let dir = start; ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'cases', 'schema.json'))) return join(dir, 'cases');
      if (dirname(dir) === dir) break;
    }
  }
  return null;
}

/** One line for the usage texts. */
export const CASES_DIR_DEFAULT = '$CRUCIBLEFORGE_CASES, else the nearest cases/ above the current directory, else the shipped set';

/** The message for a missing case set (status reports it rather than stopping). */
export const CASES_DIR_NOT_FOUND =
  'no cases directory found (looked for cases/schema.json above the current directory and the CLI, and for the @crucibleforge/case-set package); pass --cases DIR';

/**
 * --cases DIR, else $CRUCIBLEFORGE_CASES (both relative to the working directory), else
 * {@link defaultCasesDir}, else the shipped set ({@link shippedCasesDir}); null when there is none.
 */
export function findCasesDir(
  io: Pick<CliIO, 'cwd' | 'env'>,
  flag: string | undefined,
  moduleUrl: string = import.meta.url,
  shipped: string | null = shippedCasesDir(),
): string | null {
  if (flag) return resolve(io.cwd, flag);
  const fromEnv = io.env['CRUCIBLEFORGE_CASES'];
  if (fromEnv) return resolve(io.cwd, fromEnv);
  return defaultCasesDir(io.cwd, moduleUrl) ?? shipped;
}

/** {@link findCasesDir}, or a UsageError that says how to name one. */
export function casesDirOf(
  io: Pick<CliIO, 'cwd' | 'env'>,
  flag: string | undefined,
  moduleUrl: string = import.meta.url,
  shipped: string | null = shippedCasesDir(),
): string {
  const found = findCasesDir(io, flag, moduleUrl, shipped);
  if (!found) throw new UsageError(CASES_DIR_NOT_FOUND);
  return found;
}
