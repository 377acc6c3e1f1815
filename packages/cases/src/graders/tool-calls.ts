import type { ChatMessage, GradeOutcome, ToolCall } from '@crucibleforge/core';
import type { CallMatcher } from '../schema/common';
import type { GraderOf } from '../schema/graders';
import type { GradeInput } from '../types';
import { stripThinking } from '@crucibleforge/core';
import type { AnswerContext } from '../answers/text';
import { inventedFigures } from '../answers/grounded';
import { gradeFinalAnswer } from './answer';
import { countProblem, runChecks } from '../checks/library';
import { needlesProblem } from './text';
import { callProblem, describeCall, parseArguments, type ParsedCall } from './tool-matchers';

export interface AssistantTurn {
  calls: ParsedCall[];
  content: string;
}

export function parseCalls(calls: ToolCall[] | undefined): ParsedCall[] {
  return (calls ?? []).map((c) => ({ id: c.id, name: c.name, args: parseArguments(c.arguments), raw: c.arguments }));
}

/** The assistant turns of a reply: from the transcript when there is one, else the single reply. */
export function assistantTurns(input: GradeInput): AssistantTurn[] {
  const fromTranscript = (input.transcript ?? []).filter((m): m is ChatMessage => m.role === 'assistant');
  if (fromTranscript.length > 0) return fromTranscript.map((m) => ({ calls: parseCalls(m.tool_calls), content: m.content ?? '' }));
  return [{ calls: parseCalls(input.tool_calls), content: input.content }];
}

interface Located {
  call: ParsedCall;
  turn: number;
  pos: number;
}

/** Injective assignment of matchers to calls (backtracking; sizes are small). */
function assign(matchers: CallMatcher[], calls: Located[], ordered: boolean): Located[] | null {
  const used = new Set<number>();
  const chosen: Located[] = [];
  const candidates = matchers.map((m) => calls.map((c, i) => ({ c, i })).filter(({ c }) => callProblem(m, c.call) === null));
  const step = (k: number): boolean => {
    if (k === matchers.length) return true;
    for (const { c, i } of candidates[k]!) {
      if (used.has(i)) continue;
      if (ordered && k > 0 && c.pos <= chosen[k - 1]!.pos) continue;
      used.add(i);
      chosen.push(c);
      if (step(k + 1)) return true;
      used.delete(i);
      chosen.pop();
    }
    return false;
  };
  return step(0) ? chosen : null;
}

/** The closest miss for a matcher: the argument problem of a same-name call, or that no such call was made. */
function missReason(matcher: CallMatcher, calls: Located[]): string {
  const same = calls.filter((c) => c.call.name === matcher.name);
  if (same.length === 0) {
    const names = [...new Set(calls.map((c) => c.call.name))];
    return `no call to ${matcher.name}${names.length ? ` (called ${names.join(', ')})` : ''}`;
  }
  return callProblem(matcher, same[same.length - 1]!.call) ?? `${matcher.name} matched only by calls used elsewhere`;
}

/**
 * tool_calls: typed argument matchers over the whole transcript. Order of checks: no_calls, forbid, calls to
 * tools that are not `offered` (fabricated; unless `unknown_tools: allow`), max_calls, expected calls
 * (distinct calls, optionally in one turn / in order), then the final text (`answer` needles — forbid-only needles
 * accept an empty text — and the typed `final_answer`). `offered` is the names of the
 * tools the case offers (grade() passes them); null skips the fabricated-tool check.
 */
export function gradeToolCalls(grader: GraderOf<'tool_calls'>, input: GradeInput, offered: readonly string[] | null, ctx: AnswerContext = {}): GradeOutcome {
  const turns = assistantTurns(input);
  const all: Located[] = [];
  turns.forEach((t, turn) => t.calls.forEach((call) => all.push({ call, turn, pos: all.length })));
  const details: Record<string, unknown> = { calls: all.map((c) => ({ turn: c.turn + 1, call: describeCall(c.call) })) };
  const fail = (reason: string, score?: number): GradeOutcome => ({ status: 'fail', reason, details, ...(score === undefined ? {} : { score }) });

  if (grader.no_calls && all.length > 0) return fail(`called ${describeCall(all[0]!.call)} although no tool call was expected`, 0);
  for (const f of grader.forbid ?? []) {
    const hit = all.find((c) => callProblem(f, c.call) === null);
    if (hit) return fail(`forbidden call ${describeCall(hit.call)}`, 0);
  }
  if (offered !== null && grader.unknown_tools !== 'allow') {
    const known = new Set(offered);
    const fabricated = all.find((c) => !known.has(c.call.name));
    if (fabricated) {
      const list = offered.length > 0 ? `offered: ${offered.join(', ')}` : 'no tools are offered';
      return fail(`called ${fabricated.call.name}, a tool that is not offered (${list})`, 0);
    }
  }
  if (grader.max_calls !== undefined && all.length > grader.max_calls) {
    return fail(`${all.length} calls, expected at most ${grader.max_calls}`);
  }
  for (const [name, count] of Object.entries(grader.counts ?? {})) {
    const n = all.filter((c) => c.call.name === name).length;
    const problem = countProblem(n, count);
    if (problem) return fail(`${n} call${n === 1 ? '' : 's'} of ${name}, ${problem}`);
  }
  const expected = grader.calls ?? [];
  if (expected.length > 0) {
    let matched: Located[] | null = null;
    if (grader.in_one_turn) {
      for (let t = 0; t < turns.length && !matched; t++) {
        matched = assign(expected, all.filter((c) => c.turn === t), grader.ordered ?? false);
      }
      if (!matched) {
        const most = Math.max(0, ...turns.map((t) => t.calls.length));
        if (most < expected.length) return fail(`${most} call${most === 1 ? '' : 's'} in one turn, expected ${expected.length}`);
      }
    } else {
      matched = assign(expected, all, grader.ordered ?? false);
    }
    if (!matched) {
      const alone = expected.map((m) => all.some((c) => callProblem(m, c.call) === null));
      const firstMissing = expected.findIndex((_, i) => !alone[i]);
      const hits = alone.filter(Boolean).length;
      if (firstMissing >= 0) return fail(missReason(expected[firstMissing]!, all), hits / expected.length);
      return fail(grader.ordered ? 'expected calls made, but not in the required order' : grader.in_one_turn ? 'expected calls not made in one turn' : 'expected calls share a single actual call', hits / expected.length);
    }
  }
  if (grader.answer || grader.final_answer) {
    const last = turns[turns.length - 1]!;
    const text = stripThinking(last.content);
    // forbid-only needles check what a reply claims: an empty text claims nothing
    const needsText = grader.final_answer !== undefined || (grader.answer?.all?.length ?? 0) > 0 || (grader.answer?.any?.length ?? 0) > 0;
    if (!text && needsText) return fail(last.calls.length > 0 ? 'no final answer (the last turn only called tools)' : 'empty final answer');
    const problem = text && grader.answer ? needlesProblem(text, grader.answer) : null;
    if (problem) return fail(`final answer: ${problem}`);
    if (grader.final_answer) {
      const typed = gradeFinalAnswer(grader.final_answer, text, ctx);
      if (typed.status !== 'pass') return fail(`final answer: ${typed.reason}`);
    }
  }
  if (grader.grounded) {
    const last = turns[turns.length - 1]!;
    const given = [ctx.question ?? '', ...(input.transcript ?? []).filter((m) => m.role === 'tool').map((m) => m.content ?? ''), ...all.map((c) => c.call.raw)].join('\n');
    const invented = inventedFigures(stripThinking(last.content), given, grader.grounded.units, grader.grounded.allow, all.map((c) => c.call.raw));
    if (invented.length > 0) return fail(`final answer: states figures nothing gave it: ${invented.slice(0, 3).join(', ')}`);
  }
  if (grader.answer_checks) {
    const text = stripThinking(turns[turns.length - 1]!.content);
    if (!text) return fail('no final answer to check');
    const r = runChecks(grader.answer_checks, text, { prompt: ctx.question ?? '' });
    if (r.firstFailure) return fail(`final answer: ${r.firstFailure}`);
  }
  const n = all.length;
  return { status: 'pass', reason: expected.length > 0 ? `${expected.length} expected call${expected.length === 1 ? '' : 's'} made (${n} in all)` : n === 0 ? 'no tool call, as expected' : 'no forbidden call', score: 1, details };
}
