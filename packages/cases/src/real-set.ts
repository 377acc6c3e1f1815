/** Test helper (not exported from the package): the repository's real case set, loaded or a thrown list of problems. */
import { fileURLToPath } from 'node:url';
import { loadCases } from './loader';
import type { LoadedCase } from './schema/case';
import { formatProblem } from './yaml-source';

export const REAL_CASES_DIR = fileURLToPath(new URL('../../../cases', import.meta.url));

export async function loadRealCases(): Promise<LoadedCase[]> {
  const r = await loadCases(REAL_CASES_DIR);
  if (!r.ok) throw new Error(`cases/ does not load:\n${r.problems.map(formatProblem).join('\n')}`);
  return r.cases;
}
