import type { Category, ChatMessage } from '@crucibleforge/core';
import {
  applyProfile,
  DEFAULT_MAX_TURNS,
  findProfile,
  formatProblem,
  grade,
  GRADER_VERSION,
  initialMessages,
  judgeInputFor,
  loadCases,
  loadProfiles,
  materializeCase,
  nextMessages,
  type CaseDef,
  type LoadedCase,
  type MaterializedCase as ConcreteMaterialized,
  type Profile,
} from '@crucibleforge/cases';
import type { CaseDriver, MaterializedCase, PlannedCase } from './driver';
import { RunnerError } from './errors';

/** Everything sent before the first reply, in characters (a haystack counts at ~4 characters per token). */
function promptChars(def: CaseDef): number {
  const text = [def.system ?? '', def.prompt ?? '', ...(def.turns ?? []), def.tools ? JSON.stringify(def.tools) : ''].join('\n');
  return text.length + (def.haystack ? def.haystack.tokens * 4 : 0);
}

function planned(c: LoadedCase, profile: Profile): PlannedCase {
  const def = c.def;
  const maxTokens = profile.max_tokens?.[def.category] ?? def.max_tokens;
  return {
    id: def.id,
    revision: c.revision,
    category: def.category,
    difficulty: def.difficulty,
    title: def.title,
    seeded: c.seeded,
    min_context: def.min_context ?? (def.haystack ? def.haystack.tokens + maxTokens : null),
    max_tokens: maxTokens,
    prompt_chars: promptChars(def),
    turns: def.tool_script ? (def.tool_script.max_turns ?? DEFAULT_MAX_TURNS) : (def.turns?.length ?? 1),
  };
}

function problemsError(dir: string, what: string, problems: Parameters<typeof formatProblem>[0][]): RunnerError {
  const lines = problems.slice(0, 20).map((p) => formatProblem(p));
  const more = problems.length > 20 ? `\n… and ${problems.length - 20} more` : '';
  return new RunnerError('RUNNER_CONFIG_INVALID', `${what} in ${dir} have problems (run "crucibleforge cases verify"):\n${lines.join('\n')}${more}`, {
    details: { problems },
  });
}

/**
 * The default case driver: @crucibleforge/cases over a cases directory (its `profiles/` folder included).
 * Materialises each case for the run's seed, answers tool scripts with scripted results, grades in the sandbox.
 */
export function createCasesDriver(options: { casesDir: string }): CaseDriver {
  const dir = options.casesDir;
  let loaded: Promise<{ cases: LoadedCase[]; profiles: Profile[] }> | null = null;
  const load = () =>
    (loaded ??= (async () => {
      const cases = await loadCases(dir);
      if (!cases.ok) throw problemsError(dir, 'cases', cases.problems);
      const profiles = await loadProfiles(dir);
      if (!profiles.ok) throw problemsError(dir, 'profiles', profiles.problems);
      return { cases: cases.cases, profiles: profiles.profiles };
    })());
  const byId = async (id: string) => {
    const found = (await load()).cases.find((c) => c.def.id === id);
    if (!found) throw new RunnerError('RUNNER_CONFIG_INVALID', `case ${id} is not in ${dir}`);
    return found;
  };
  return {
    graderVersion: GRADER_VERSION,
    async plan({ profile, categories }: { profile: string; categories: Category[] | null }) {
      const { cases, profiles } = await load();
      const chosen = findProfile(profiles, profile);
      return applyProfile(chosen, cases)
        .filter((c) => !categories || categories.includes(c.def.category))
        .map((c) => planned(c, chosen));
    },
    async materialize(p, seed, world): Promise<MaterializedCase> {
      const c = await byId(p.id);
      const concrete = await materializeCase(c.def, seed, c.def.derive ? { sandbox: await world.sandbox() } : {});
      concrete.max_tokens = p.max_tokens;
      const judgeInput = judgeInputFor(concrete);
      return {
        messages: initialMessages(concrete),
        ...(concrete.tools.length > 0 ? { tools: concrete.tools } : {}),
        temperature: concrete.temperature,
        ...(judgeInput ? { judge_input: judgeInput } : {}),
        state: concrete,
      };
    },
    next(m, transcript: ChatMessage[]) {
      return nextMessages(m.state as ConcreteMaterialized, transcript);
    },
    async grade(m, final, world) {
      const concrete = m.state as ConcreteMaterialized;
      const sandbox = concrete.grader.type === 'code' ? await world.sandbox() : undefined;
      return grade(
        concrete,
        { content: final.content, tool_calls: final.tool_calls, finish_reason: final.finish_reason, transcript: final.transcript },
        sandbox ? { sandbox } : {},
      );
    },
  };
}
