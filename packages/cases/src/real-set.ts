/** Test helper (not exported from the package): the repository's real case set, loaded or a thrown list of problems. */
import { fileURLToPath } from 'node:url';
import { loadCaseSet, type CaseSet } from './case-set';
import type { LoadedCase } from './schema/case';

export const REAL_CASES_DIR = fileURLToPath(new URL('../../../cases', import.meta.url));

/** The real set (cases and profiles) through the one loader: CASES_INVALID names every problem. */
export function loadRealSet(): Promise<CaseSet> {
  return loadCaseSet(REAL_CASES_DIR);
}

export async function loadRealCases(): Promise<LoadedCase[]> {
  return (await loadRealSet()).cases;
}
