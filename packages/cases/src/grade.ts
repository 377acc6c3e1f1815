import type { GradeOutcome } from '@crucibleforge/core';
import { cachedCalibration } from './calibration';
import { runChecks } from './checks/library';
import { gradeAgent } from './graders/agent';
import { gradeAssignments, gradeChoice, gradeExact, gradeNumber } from './graders/answer';
import { gradeCode } from './graders/code';
import { gradeContains, gradeJson, gradeRegex } from './graders/text';
import { gradeToolCalls } from './graders/tool-calls';
import { stripThinking } from '@crucibleforge/core';
import type { ConcreteCase, GradeContext, GradeInput } from './types';

/**
 * Version of the graders: recorded in every result row, and beside every re-grade (`crucibleforge
 * regrade`). Bump it whenever any grader would read some reply differently. graders/1 is what graded rows
 * before versions were recorded; graders/2 reads answers as typed values (answers/*).
 */
export const GRADER_VERSION = 'graders/2';

const noReference = (what: string): GradeOutcome => ({ status: 'error', reason: `the case has no reference ${what}` });

/** What the answer extractors may know of the question: the prompt without a long-context haystack. */
export function questionText(c: Pick<ConcreteCase, 'system' | 'turns'> & { haystack?: { text: string } | null }): string {
  const hay = c.haystack?.text;
  return [c.system ?? '', ...c.turns].map((t) => (hay ? t.split(hay).join(' ') : t)).join('\n');
}

async function dispatch(c: ConcreteCase, input: GradeInput, ctx: GradeContext): Promise<GradeOutcome> {
  const g = c.grader;
  const question = { question: questionText(c) };
  const answer = c.reference.answer;
  const content = input.content ?? '';
  switch (g.type) {
    case 'code': {
      let timeLimitMs = ctx.timeLimitMs;
      if (timeLimitMs === undefined && g.complexity && ctx.sandbox) {
        try {
          timeLimitMs = (await cachedCalibration(c, ctx.sandbox)).limit_ms;
        } catch (error) {
          return { status: 'error', reason: `calibration failed: ${error instanceof Error ? error.message : String(error)}` };
        }
      }
      return gradeCode(g, content, { ...(ctx.sandbox ? { sandbox: ctx.sandbox } : {}), ...(timeLimitMs ? { timeLimitMs } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}) });
    }
    case 'number':
      return typeof answer === 'string' || typeof answer === 'number' ? gradeNumber(g, answer, content, input.finish_reason) : noReference('answer');
    case 'exact':
      return typeof answer === 'string' || typeof answer === 'number' ? gradeExact(g, String(answer), content, input.finish_reason, question) : noReference('answer');
    case 'choice':
      return typeof answer === 'string' ? gradeChoice(g, answer, content, input.finish_reason, question) : noReference('answer');
    case 'assignments':
      return answer !== null && typeof answer === 'object' ? gradeAssignments(g, answer, content) : noReference('answer map');
    case 'contains':
      return gradeContains(g, content);
    case 'regex':
      return gradeRegex(g, content);
    case 'json':
      return gradeJson(g, content);
    case 'checks': {
      const text = stripThinking(content);
      if (!text) return { status: 'fail', reason: 'empty reply', score: 0 };
      const r = runChecks(g.checks, text, { prompt: [c.system ?? '', ...c.turns].join('\n') });
      const passed = r.results.filter((x) => x.pass).length;
      const score = passed / r.results.length;
      return r.firstFailure
        ? { status: 'fail', reason: r.firstFailure, score, details: { checks: r.results } }
        : { status: 'pass', reason: `all ${r.results.length} checks passed`, score, details: { checks: r.results } };
    }
    case 'tool_calls':
      return gradeToolCalls(g, input, c.tools.map((t) => t.function.name), question);
    case 'judge': {
      const text = stripThinking(content);
      if (!text) return { status: 'fail', reason: 'empty reply' };
      if (g.checks) {
        const r = runChecks(g.checks, text, { prompt: [c.system ?? '', ...c.turns].join('\n') });
        if (r.firstFailure) return { status: 'fail', reason: r.firstFailure, details: { checks: r.results } };
      }
      return {
        status: 'pending',
        reason: 'waits for the judge',
        details: { reference: answer ?? null, facts: c.reference.facts ?? [], ...(g.focus ? { focus: g.focus } : {}) },
      };
    }
    case 'agent': {
      return gradeAgent(g, content, [c.system ?? '', ...c.turns].join('\n'), question);
    }
  }
}

/**
 * Grades one reply to a concrete case. Reads the content channel only (reasoning is never an answer).
 * Only the code grader touches the sandbox (ctx.sandbox); complexity-enforcing code cases use ctx.timeLimitMs,
 * else a calibration measured once per sandbox. A failed reply cut off by the token budget says TRUNCATED.
 */
export async function grade(c: ConcreteCase, input: GradeInput, ctx: GradeContext = {}): Promise<GradeOutcome> {
  const outcome = await dispatch(c, input, ctx);
  if (outcome.status === 'fail' && input.finish_reason === 'length' && !outcome.reason.startsWith('TRUNCATED')) {
    return { ...outcome, reason: `TRUNCATED (token budget spent): ${outcome.reason}` };
  }
  return outcome;
}
