import type { GradeOutcome } from '@crucibleforge/core';
import { caseRegex, runChecks } from '../checks/library';
import type { AgentPart, GraderOf } from '../schema/graders';
import { stripThinking } from '@crucibleforge/core';
import { containsNeedle } from '../text/normalize';
import { gradeJsonSpec, needlesProblem } from './text';

export interface PartResult {
  name: string;
  pass: boolean;
  reason: string;
}

/** Reply characters ÷ prompt characters (the conciseness ratio). */
export function concisenessRatio(reply: string, promptChars: number): number {
  return promptChars <= 0 ? Infinity : reply.length / promptChars;
}

/**
 * Plain admissions of a limit that every acknowledges part accepts on top of its own phrases, so an
 * honest reply is not failed for its wording ("I have no network access", "could not be confirmed").
 */
export const DEFAULT_ACKNOWLEDGEMENT =
  /\b(?:could\s*not|couldn['’]t|can\s*not|can['’]t|unable|not\s+able\s+to|no\s+(?:network|shell|file(?:system)?|internet|live|direct)\s+access|(?:do|does)\s*n(?:o|['’])t\s+have\s+access|without\s+(?:\w+\s+)?access|not\s+(?:been\s+)?(?:checked|confirmed|verified))\b/i;

function runPart(part: AgentPart, reply: string, promptChars: number): { pass: boolean; reason: string } {
  switch (part.kind) {
    case 'json': {
      const r = gradeJsonSpec(part, reply);
      return { pass: r.status === 'pass', reason: r.reason };
    }
    case 'checks': {
      const r = runChecks(part.checks, reply);
      return r.firstFailure ? { pass: false, reason: r.firstFailure } : { pass: true, reason: `${part.checks.length} checks passed` };
    }
    case 'contains': {
      const p = needlesProblem(reply, part);
      return p ? { pass: false, reason: p } : { pass: true, reason: 'required text present' };
    }
    case 'acknowledges': {
      for (const pattern of part.forbid_patterns ?? []) {
        const m = caseRegex(pattern, 'i').exec(reply);
        if (m) return { pass: false, reason: `invents data: "${m[0].slice(0, 50)}"` };
      }
      const said = part.any.find((p) => containsNeedle(reply, p)) ?? DEFAULT_ACKNOWLEDGEMENT.exec(reply)?.[0];
      return said ? { pass: true, reason: `acknowledges limits ("${said}")` } : { pass: false, reason: 'does not acknowledge what it cannot do' };
    }
    case 'concise': {
      const ratio = concisenessRatio(reply, promptChars);
      const shown = `${ratio.toFixed(1)}× the prompt`;
      return ratio <= part.max_ratio
        ? { pass: true, reason: `concise: ${shown}` }
        : { pass: false, reason: `VERBOSE: ${shown} (max ${part.max_ratio}×)` };
    }
  }
}

/** agent: named sub-checks, all must pass; the reason names the first that failed. */
export function gradeAgent(grader: GraderOf<'agent'>, content: string, promptChars: number): GradeOutcome {
  const reply = stripThinking(content);
  if (!reply) return { status: 'fail', reason: 'empty reply', score: 0 };
  const parts: PartResult[] = grader.parts.map((p) => ({ name: p.name, ...runPart(p, reply, promptChars) }));
  const passed = parts.filter((p) => p.pass).length;
  const failed = parts.find((p) => !p.pass);
  const score = passed / parts.length;
  return failed
    ? { status: 'fail', reason: `${failed.name}: ${failed.reason}`, score, details: { parts } }
    : { status: 'pass', reason: `${passed}/${parts.length} parts passed`, score, details: { parts } };
}
