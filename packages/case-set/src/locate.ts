/** Where a tool finds the cases when none is named: the nearest checkout's `cases/`, else this package's copy. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASE_SET_MARKER, caseSetDir } from './dir';

/** The case set shipped in this package (found by package resolution), or null when it is not installed whole. */
export function shippedCasesDir(): string | null {
  return existsSync(join(caseSetDir, CASE_SET_MARKER)) ? caseSetDir : null;
}

/**
 * The nearest `cases/` holding `schema.json`, looking up from the working directory first, then from the
 * calling module's file (`moduleUrl`: the checkout a tool runs from); null when there is none.
 */
export function defaultCasesDir(cwd: string, moduleUrl?: string): string | null {
  const starts = [resolve(cwd)];
  if (moduleUrl?.startsWith('file:')) starts.push(dirname(fileURLToPath(moduleUrl)));
  for (const start of starts) {
    for (let dir = start; ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'cases', CASE_SET_MARKER))) return join(dir, 'cases');
      if (dirname(dir) === dir) break;
    }
  }
  return null;
}

/**
 * The cases directory: `named` (a --cases flag, else a $CRUCIBLEFORGE_CASES value; relative to `cwd`), else
 * {@link defaultCasesDir}, else `shipped` (default: {@link shippedCasesDir}); null when there is none.
 */
export function findCasesDir(cwd: string, named: string | undefined, moduleUrl?: string, shipped: string | null = shippedCasesDir()): string | null {
  if (named) return resolve(cwd, named);
  return defaultCasesDir(cwd, moduleUrl) ?? shipped;
}
