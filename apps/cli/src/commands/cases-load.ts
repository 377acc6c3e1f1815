import { applyProfile, findProfile, formatProblem, isCasesError, loadCaseSet, type LoadedCase, type Profile, type SourceProblem } from '@crucibleforge/cases';
import type { CliIO } from '../io';
import { exitCodeOf } from '@crucibleforge/core';

/** Loads the case set (all or nothing, cases' loadCaseSet) and applies --profile; a number is the exit code (every problem printed with file:line). */
export async function loadSelection(io: CliIO, dir: string, profileName: string | undefined): Promise<{ cases: LoadedCase[]; all: LoadedCase[]; profiles: Profile[] } | number> {
  try {
    const set = await loadCaseSet(dir);
    for (const p of set.profiles) applyProfile(p, set.cases);
    const cases = profileName === undefined ? set.cases : applyProfile(findProfile(set.profiles, profileName), set.cases);
    return { cases, all: set.cases, profiles: set.profiles };
  } catch (error) {
    if (!isCasesError(error)) throw error;
    const problems = isCasesError(error, 'CASES_INVALID') ? (error.details['problems'] as SourceProblem[]) : [];
    for (const p of problems) io.stderr.write(`${formatProblem(p)}\n`);
    io.stderr.write(
      problems.length > 0 ? `crucibleforge cases: ${problems.length} problem${problems.length === 1 ? '' : 's'} in ${dir}; nothing was loaded\n` : `crucibleforge cases: ${error.message}\n`,
    );
    return exitCodeOf(error.kind);
  }
}
