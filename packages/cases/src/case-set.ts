import { join } from 'node:path';
import { casesError } from './errors';
import { loadCases } from './loader';
import { loadProfiles, type Profile } from './profiles';
import type { LoadedCase } from './schema/case';
import { formatProblem, type SourceProblem } from './yaml-source';

/** A case directory, loaded whole: its cases (sorted) and its `profiles/`. */
export interface CaseSet {
  dir: string;
  cases: LoadedCase[];
  profiles: Profile[];
}

const SHOWN = 20;

function invalid(dir: string, what: 'cases' | 'profiles', problems: SourceProblem[]) {
  const located = problems.map((p) => ({ ...p, file: p.file === dir ? dir : join(dir, p.file) }));
  const lines = located.slice(0, SHOWN).map((p) => `  ${formatProblem(p)}`);
  const more = located.length > SHOWN ? [`  … and ${located.length - SHOWN} more`] : [];
  return casesError('CASES_INVALID', [`the ${what} in ${dir} do not load (crucibleforge cases verify):`, ...lines, ...more].join('\n'), {
    details: { dir, what, problems: located },
  });
}

/**
 * The one way to read a case directory (the runner's driver, the CLI, the GUI): every case and every profile,
 * all or nothing. Throws CASES_INVALID naming the directory and each problem (file:line:column, the field);
 * `details.problems` holds them all with the file joined to the directory.
 */
export async function loadCaseSet(dir: string): Promise<CaseSet> {
  const cases = await loadCases(dir);
  if (!cases.ok) throw invalid(dir, 'cases', cases.problems);
  const profiles = await loadProfiles(dir);
  if (!profiles.ok) throw invalid(dir, 'profiles', profiles.problems);
  return { dir, cases: cases.cases, profiles: profiles.profiles };
}
