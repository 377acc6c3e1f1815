/** Where the cases are: one rule for every command that reads them (run, all, gui, demo, status, bench-llm, cases). */
import { findCasesDir as locate, shippedCasesDir } from '@crucibleforge/case-set';
import { UsageError, type CliIO } from './io';

/** One line for the usage texts. */
export const CASES_DIR_DEFAULT = '$CRUCIBLEFORGE_CASES, else the nearest cases/ above the current directory, else the shipped set';

/** The message for a missing case set (status reports it rather than stopping). */
export const CASES_DIR_NOT_FOUND =
  'no cases directory found (looked for cases/schema.json above the current directory and the CLI, and for the @crucibleforge/case-set package); pass --cases DIR';

/** --cases DIR, else $CRUCIBLEFORGE_CASES, else the nearest checkout's cases/ (from here or this CLI), else the shipped set. */
export function findCasesDir(io: Pick<CliIO, 'cwd' | 'env'>, flag: string | undefined, moduleUrl: string = import.meta.url, shipped: string | null = shippedCasesDir()): string | null {
  return locate(io.cwd, flag || io.env['CRUCIBLEFORGE_CASES'] || undefined, moduleUrl, shipped);
}

/** {@link findCasesDir}, or a UsageError that says how to name one. */
export function casesDirOf(io: Pick<CliIO, 'cwd' | 'env'>, flag: string | undefined, moduleUrl: string = import.meta.url, shipped: string | null = shippedCasesDir()): string {
  const found = findCasesDir(io, flag, moduleUrl, shipped);
  if (!found) throw new UsageError(CASES_DIR_NOT_FOUND);
  return found;
}
