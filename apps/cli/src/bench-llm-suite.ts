/** Loads a profile's cases and materialises them for one seed (bench-llm's quick suite, the demo's standard profile). */
import { CrucibleError } from '@crucibleforge/core';
import { applyProfile, findProfile, formatProblem, loadCases, loadProfiles, materializeCase, type MaterializedCase } from '@crucibleforge/cases';
import type { Sandbox } from '@crucibleforge/sandbox';

function invalid(casesDir: string, what: string, problems: Parameters<typeof formatProblem>[0][]): CrucibleError {
  const shown = problems.slice(0, 10).map((p) => `  ${formatProblem(p)}`);
  const more = problems.length > 10 ? [`  … and ${problems.length - 10} more`] : [];
  return new CrucibleError('CASES_INVALID', [`the ${what} in ${casesDir} do not load (crucibleforge cases verify):`, ...shown, ...more].join('\n'));
}

/** The profile's cases for `seed`; derive programs run in the sandbox (none given: such cases are an error). */
export async function profileCases(casesDir: string, profile: string, seed: number, sandbox: Sandbox | null): Promise<MaterializedCase[]> {
  const loaded = await loadCases(casesDir);
  if (!loaded.ok) throw invalid(casesDir, 'cases', loaded.problems);
  const profiles = await loadProfiles(casesDir);
  if (!profiles.ok) throw invalid(casesDir, 'profiles', profiles.problems);
  const chosen = applyProfile(findProfile(profiles.profiles, profile), loaded.cases);
  return Promise.all(chosen.map((c) => materializeCase(c.def, seed, c.def.derive && sandbox ? { sandbox } : {})));
}
