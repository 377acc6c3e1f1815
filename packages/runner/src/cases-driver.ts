import { applyProfile, caseRequest, findProfile, grade, GRADER_VERSION, loadCaseSet, materializeCase, nextMessages, planCase, type MaterializedCase } from '@crucibleforge/cases';
import type { CaseDriver } from './driver';
import { RunnerError } from './errors';

/**
 * The default case driver: @crucibleforge/cases over a cases directory (its `profiles/` folder included).
 * Materialises each case for the run's seed (with the profile's reply budget), answers tool scripts with
 * scripted results, grades in the sandbox.
 */
export function createCasesDriver(options: { casesDir: string }): CaseDriver<MaterializedCase> {
  const dir = options.casesDir;
  let loaded: ReturnType<typeof loadCaseSet> | null = null;
  const load = () => (loaded ??= loadCaseSet(dir));
  const byId = async (id: string) => {
    const found = (await load()).cases.find((c) => c.def.id === id);
    if (!found) throw new RunnerError('RUNNER_CONFIG_INVALID', `case ${id} is not in ${dir}`);
    return found;
  };
  return {
    graderVersion: GRADER_VERSION,
    async plan({ profile, categories }) {
      const { cases, profiles } = await load();
      const chosen = findProfile(profiles, profile);
      return applyProfile(chosen, cases)
        .filter((c) => !categories || categories.includes(c.def.category))
        .map((c) => planCase(c, chosen));
    },
    async materialize(p, seed, world) {
      const c = await byId(p.id);
      return materializeCase(c.def, seed, { maxTokens: p.max_tokens, ...(c.def.derive ? { sandbox: await world.sandbox() } : {}) });
    },
    request: caseRequest,
    next: nextMessages,
    async grade(m, final, world) {
      const sandbox = m.grader.type === 'code' ? await world.sandbox() : undefined;
      return grade(m, final, sandbox ? { sandbox } : {});
    },
  };
}
