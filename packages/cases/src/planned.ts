import type { Category, ChatMessage, Difficulty, GradeOutcome, ToolDefinition } from '@crucibleforge/core';
import { DEFAULT_MAX_TURNS, initialMessages } from './conversation';
import type { MaterializedCase } from './materialize';
import type { Profile } from './profiles';
import { referenceText } from './reference';
import type { LoadedCase } from './schema/case';

/** A case as a run plans it, before a seed is applied: what the planner, the cost estimate and resume need. */
export interface PlannedCase {
  id: string;
  revision: string;
  category: Category;
  difficulty: Difficulty;
  title?: string;
  /** Seeded cases take the run's seed; others are run with seed null. */
  seeded: boolean;
  /** The reply budget (the profile's per-category override, else the case's own), before any reasoning factor. */
  max_tokens: number;
  /** The case may need more context than a small model has (a declared min_context or a haystack); see contextSkip. */
  long_context: boolean;
  /** For the cost estimate: characters of everything sent before the first reply (a haystack at ~4 per token). */
  prompt_chars: number;
  /** Model calls at most (tool-script turns, user turns). */
  turns: number;
  /** The grader's type (code, exact, json, judge, agent, …); a custom driver names its own. */
  grader?: string;
  /** Grading (a code case) or materialising (a derive program) needs the sandbox: without one the case is skipped, nothing sent. */
  needs_sandbox?: boolean;
}

/** A case of the set planned under a profile (its per-category max_tokens override applies). */
export function planCase(c: LoadedCase, profile?: Pick<Profile, 'max_tokens'>): PlannedCase {
  const def = c.def;
  const text = [def.system ?? '', def.prompt ?? '', ...(def.turns ?? []), def.tools ? JSON.stringify(def.tools) : ''].join('\n');
  return {
    id: def.id,
    revision: c.revision,
    category: def.category,
    difficulty: def.difficulty,
    title: def.title,
    seeded: c.seeded,
    max_tokens: profile?.max_tokens?.[def.category] ?? def.max_tokens,
    long_context: def.min_context !== undefined || def.haystack !== undefined,
    prompt_chars: text.length + (def.haystack ? def.haystack.tokens * 4 : 0),
    turns: def.tool_script ? (def.tool_script.max_turns ?? DEFAULT_MAX_TURNS) : (def.turns?.length ?? 1),
    grader: def.grader.type,
    needs_sandbox: def.grader.type === 'code' || def.derive !== undefined,
  };
}

/** What a judged case hands the judge, frozen into the row when it is run. */
export interface JudgeInput {
  /** The system message and every user turn, as the model saw them. */
  question: string;
  reference: string;
  facts?: string[];
  focus?: string;
}

/** What a run sends for a materialised case, and what it keeps for the judge and the context check. */
export interface CaseRequest {
  /** System and first user message. */
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  /** Default: the model's temperature from models.yaml. */
  temperature?: number;
  judge_input?: JudgeInput;
  /** The context the case needs with its own budget (see contextNeeded); null when any model fits. */
  min_context: number | null;
}

/**
 * What the reference judge compares for a materialised case graded by the judge (`grader.type: judge`), null for
 * every other grader: `judgeAgainstReference({ ...judgeInputFor(c)!, answer }, options)` (`@crucibleforge/judge`).
 */
export function judgeInputFor(c: Pick<MaterializedCase, 'system' | 'turns' | 'grader' | 'reference'>): JudgeInput | null {
  if (c.grader.type !== 'judge') return null;
  return {
    question: [c.system ?? '', ...c.turns].filter(Boolean).join('\n\n'),
    reference: referenceText(c) ?? '',
    ...(c.reference.facts?.length ? { facts: [...c.reference.facts] } : {}),
    ...(c.grader.focus ? { focus: c.grader.focus } : {}),
  };
}

/** The request of a materialised case: its first messages, tools and temperature, the judge's input for a judged case. */
export function caseRequest(c: MaterializedCase): CaseRequest {
  const judgeInput = judgeInputFor(c);
  return {
    messages: initialMessages(c),
    ...(c.tools.length > 0 ? { tools: c.tools } : {}),
    temperature: c.temperature,
    ...(judgeInput ? { judge_input: judgeInput } : {}),
    min_context: c.min_context,
  };
}

/**
 * The one context rule: a case needs its min_context (declared, or for a haystack case its prompt plus its own
 * answer budget, as materializeCase computes it), plus whatever answer budget is sent beyond the case's own (a
 * reasoning model gets its budget × reasoning_factor). null when the case fits any model.
 */
export function contextNeeded(c: { min_context: number | null; max_tokens: number }, sentBudget: number = c.max_tokens): number | null {
  return c.min_context === null ? null : c.min_context + Math.max(0, sentBudget - c.max_tokens);
}

/** A `skipped` outcome when the model's context is too small for the case (a skip is never a fail), else null. */
export function contextSkip(c: { min_context: number | null; max_tokens: number }, modelContext: number | null, sentBudget: number = c.max_tokens): GradeOutcome | null {
  const needed = contextNeeded(c, sentBudget);
  if (needed === null || modelContext === null || needed <= modelContext) return null;
  const budget = sentBudget > c.max_tokens ? ` (${sentBudget}-token answer budget)` : '';
  return { status: 'skipped', reason: `needs ${needed} tokens of context${budget}, model has ${modelContext}` };
}
