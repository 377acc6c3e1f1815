import type { GradeOutcome } from '@crucibleforge/core';
import { caseRegex, runChecks } from '../checks/library';
import type { AgentPart, GraderOf } from '../schema/graders';
import { inventedFigures } from '../answers/grounded';
import type { AnswerContext } from '../answers/text';
import { stripThinking } from '@crucibleforge/core';
import { containsNeedle } from '../text/normalize';
import { gradeFinalAnswer } from './answer';
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
  /\b(?:could\s*not|couldn['’]t|can\s*not|can['’]t|unable|not\s+able\s+to|no\s+(?:network|shell|file(?:system)?|internet|live|direct|tool|tools|remote)\s+access|have\s+no\s+(?:access|tools?)|(?:do|does)\s*n(?:o|['’])t\s+have\s+access|without\s+(?:\w+\s+)?access|not\s+(?:been\s+)?(?:checked|confirmed|verified|scanned|inspected|run)|no\s+(?:scan|check|query|test|command|restore)s?\s+(?:was|were|has\s+been|have\s+been)\s+(?:run|done|performed|made)|(?:is|are|stays|remains|still)\s+unknown|beyond\s+what\s+you\s+(?:pasted|gave|shared|provided|sent))\b/i;

/**
 * The reply without its heading titles: the headings a prompt asks for ("## Not verified") say nothing
 * about what the reply admits, so an acknowledgement must be in the text itself.
 */
function withoutHeadings(reply: string): string {
  return reply
    .split('\n')
    .map((line) => line.replace(/^\s*#{1,6}\s+.*$/, '').replace(/^\s*(?:\*\*|__)[^*_\n]+(?:\*\*|__)\s*:?\s*$/, ''))
    .join('\n');
}

function runPart(part: AgentPart, reply: string, prompt: string, ctx: AnswerContext): { pass: boolean; reason: string } {
  const promptChars = prompt.length;
  switch (part.kind) {
    case 'json': {
      const r = gradeJsonSpec(part, reply);
      return { pass: r.status === 'pass', reason: r.reason };
    }
    case 'checks': {
      const r = runChecks(part.checks, reply, { prompt });
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
      const own = withoutHeadings(reply);
      const said = part.any.find((p) => containsNeedle(own, p)) ?? DEFAULT_ACKNOWLEDGEMENT.exec(own)?.[0];
      return said ? { pass: true, reason: `acknowledges limits ("${said}")` } : { pass: false, reason: 'does not acknowledge what it cannot do' };
    }
    case 'answer': {
      const r = gradeFinalAnswer(part.answer, reply, ctx);
      return { pass: r.status === 'pass', reason: r.reason };
    }
    case 'grounded': {
      const invented = inventedFigures(reply, prompt, part.units, part.allow);
      return invented.length > 0
        ? { pass: false, reason: `invents figures the prompt never gives: ${invented.slice(0, 3).join(', ')}` }
        : { pass: true, reason: 'states only figures the prompt gives' };
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

/** agent: named sub-checks, all must pass; the reason names the first that failed. `prompt` is what the model saw. */
export function gradeAgent(grader: GraderOf<'agent'>, content: string, prompt: string, ctx: AnswerContext = {}): GradeOutcome {
  const reply = stripThinking(content);
  if (!reply) return { status: 'fail', reason: 'empty reply', score: 0 };
  const parts: PartResult[] = grader.parts.map((p) => ({ name: p.name, ...runPart(p, reply, prompt, ctx) }));
  const passed = parts.filter((p) => p.pass).length;
  const failed = parts.find((p) => !p.pass);
  const score = passed / parts.length;
  return failed
    ? { status: 'fail', reason: `${failed.name}: ${failed.reason}`, score, details: { parts } }
    : { status: 'pass', reason: `${passed}/${parts.length} parts passed`, score, details: { parts } };
}
