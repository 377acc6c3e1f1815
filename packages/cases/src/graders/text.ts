import type { GradeOutcome } from '@crucibleforge/core';
import { caseRegex } from '../checks/library';
import type { Needles } from '../schema/common';
import type { GraderOf } from '../schema/graders';
import { jsonSpecProblem, type JsonSpec } from '../text/json';
import { finalAnswer } from '../answers/final';
import { answerBlock } from '../answers/list';
import { stripThinking } from '@crucibleforge/core';
import { containsNeedle } from '../text/normalize';

/** null when the needles are satisfied, else the reason. */
export function needlesProblem(text: string, needles: Needles): string | null {
  for (const f of needles.forbid ?? []) if (containsNeedle(text, f)) return `forbidden "${f}" present`;
  for (const a of needles.all ?? []) if (!containsNeedle(text, a)) return `missing "${a}"`;
  if (needles.any && needles.any.length > 0 && !needles.any.some((n) => containsNeedle(text, n))) {
    return `none of ${needles.any.map((n) => `"${n}"`).join(', ')} present`;
  }
  return null;
}

function scoped(content: string, scope: 'all' | 'answer' | undefined, label = 'Answer'): { text: string } | { error: string } {
  const text = stripThinking(content);
  if (!text) return { error: 'empty reply' };
  if (scope !== 'answer') return { text };
  const final = finalAnswer(text, label);
  return final === null ? { error: `no "${label}:" line` } : { text: answerBlock(final) };
}

/** contains: word-boundary needles (numbers as numbers), `all` / `any` / `forbid`. */
export function gradeContains(grader: GraderOf<'contains'>, content: string): GradeOutcome {
  const s = scoped(content, grader.scope, grader.label);
  if ('error' in s) return { status: 'fail', reason: s.error };
  const problem = needlesProblem(s.text, grader);
  return problem ? { status: 'fail', reason: problem } : { status: 'pass', reason: 'required text present', score: 1 };
}

/** regex: the pattern matches (search) and no forbid pattern does. */
export function gradeRegex(grader: GraderOf<'regex'>, content: string): GradeOutcome {
  const s = scoped(content, grader.scope, grader.label);
  if ('error' in s) return { status: 'fail', reason: s.error };
  for (const f of grader.forbid ?? []) {
    const m = caseRegex(f, grader.flags).exec(s.text);
    if (m) return { status: 'fail', reason: `forbidden pattern matched: "${m[0].slice(0, 40)}"` };
  }
  return caseRegex(grader.pattern, grader.flags).test(s.text)
    ? { status: 'pass', reason: 'pattern matched', score: 1 }
    : { status: 'fail', reason: `no match for /${grader.pattern}/` };
}

/** json: extract the JSON (fences and preamble stripped), exact keys and types, expected values by path. */
export function gradeJsonSpec(spec: JsonSpec, content: string): GradeOutcome {
  const problem = jsonSpecProblem(spec, content);
  return problem ? { status: 'fail', reason: problem } : { status: 'pass', reason: 'JSON has the required keys and types', score: 1 };
}

export function gradeJson(grader: GraderOf<'json'>, content: string): GradeOutcome {
  return gradeJsonSpec(grader, content);
}
