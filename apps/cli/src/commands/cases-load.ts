import { join } from 'node:path';
import { applyProfile, findProfile, formatProblem, loadCases, loadProfiles, type LoadedCase, type Profile, type SourceProblem } from '@crucibleforge/cases';
import { CrucibleError } from '@crucibleforge/core';
import { EXIT, type CliIO } from '../io';

function printProblems(io: CliIO, dir: string, problems: SourceProblem[]): number {
  for (const p of problems) io.stderr.write(`${formatProblem({ ...p, file: join(dir, p.file) })}\n`);
  io.stderr.write(`crucibleforge cases: ${problems.length} problem${problems.length === 1 ? '' : 's'} in ${dir}; nothing was loaded\n`);
  return EXIT.usage;
}

/** Loads cases and profiles (all or nothing) and applies --profile; a number is the exit code. */
export async function loadSelection(io: CliIO, dir: string, profileName: string | undefined): Promise<{ cases: LoadedCase[]; all: LoadedCase[]; profiles: Profile[] } | number> {
  const loaded = await loadCases(dir);
  if (!loaded.ok) return printProblems(io, dir, loaded.problems);
  const profiles = await loadProfiles(dir);
  if (!profiles.ok) return printProblems(io, dir, profiles.problems);
  try {
    for (const p of profiles.profiles) applyProfile(p, loaded.cases);
    const cases = profileName === undefined ? loaded.cases : applyProfile(findProfile(profiles.profiles, profileName), loaded.cases);
    return { cases, all: loaded.cases, profiles: profiles.profiles };
  } catch (error) {
    if (CrucibleError.isInstance(error) && error.code.startsWith('CASES_')) {
      io.stderr.write(`crucibleforge cases: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}

