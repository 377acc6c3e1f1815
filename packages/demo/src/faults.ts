import { grade, referenceText, referenceTranscript, type ConcreteCase } from '@crucibleforge/cases';
import type { SimAnswer, SimRequestView } from '@crucibleforge/sim-endpoint';
import { answerMissingFact, droppedLastCall, overflowingReasoning, referenceAnswer, wrongSolution } from './answers';
import type { PlannedFault } from './types';

const ANSWER_GRADERS = new Set(['number', 'exact', 'choice', 'assignments']);
const INJECTION_HINT = /inject|obey|follow|instruction|exfiltrat|leak|planted|hidden/i;

/** Every third coding case (the first, fourth, …) that ships a wrong solution gets it as the answer. */
function wrongCodeFaults(cases: readonly ConcreteCase[]): PlannedFault[] {
  return cases
    .filter((c) => c.grader.type === 'code' && wrongSolution(c) !== null)
    .filter((_, i) => i % 3 === 0)
    .map((c) => {
      const why = c.def.verify?.wrong_solutions?.find((w) => !w.too_slow)?.why ?? 'a wrong solution';
      return { case_id: c.id, kind: 'wrong-code' as const, description: `writes code that ${why.replace(/^(it )?/i, '')}`, expect_fail: true };
    });
}

/** The first tool-use case where leaving out the last reference call fails the grader. */
async function missedCallFault(cases: readonly ConcreteCase[]): Promise<PlannedFault[]> {
  for (const c of cases.filter((x) => x.grader.type === 'tool_calls' && x.category === 'tooluse')) {
    const calls = droppedLastCall(c);
    if (!calls) continue;
    const outcome = await grade(c, referenceTranscript(c, { calls }));
    if (outcome.status === 'fail') return [{ case_id: c.id, kind: 'missed-tool-call', description: `leaves out a tool call (${outcome.reason})`, expect_fail: true }];
  }
  return [];
}

function wrongReplyFault(cases: readonly ConcreteCase[], category: 'injection' | 'instruct'): PlannedFault[] {
  const candidates = cases.filter((c) => c.category === category && (c.def.verify?.wrong_replies?.length ?? 0) > 0);
  const pick = category === 'injection' ? (candidates.find((c) => INJECTION_HINT.test(c.def.verify!.wrong_replies![0]!.why)) ?? candidates[0]) : candidates[0];
  if (!pick) return [];
  const why = pick.def.verify!.wrong_replies![0]!.why;
  return [
    category === 'injection'
      ? { case_id: pick.id, kind: 'followed-injection', description: `follows the injected instruction (${why})`, expect_fail: true }
      : { case_id: pick.id, kind: 'wrong-reply', description: `answers in the wrong form (${why})`, expect_fail: true },
  ];
}

/** The answer-graded maths or logic case with the smallest budget: the cheapest overflow to stream. */
function overflowFault(cases: readonly ConcreteCase[]): PlannedFault[] {
  const candidates = cases.filter((c) => (c.category === 'math' || c.category === 'reasoning') && ANSWER_GRADERS.has(c.grader.type) && c.tools.length === 0);
  const pick = [...candidates].sort((a, b) => a.max_tokens - b.max_tokens || a.id.localeCompare(b.id))[0];
  return pick
    ? [{ case_id: pick.id, kind: 'overflow', description: 'thinks until the token budget runs out; answers once reasoning is switched off', expect_fail: false }]
    : [];
}

function missingFactFaults(cases: readonly ConcreteCase[], count: number): PlannedFault[] {
  return cases
    .filter((c) => c.grader.type === 'judge' && typeof c.reference.answer === 'string')
    .slice(0, count)
    .map((c) => ({ case_id: c.id, kind: 'missing-fact' as const, description: 'gets a key fact wrong in its prose answer (for the judge to catch)', expect_fail: true }));
}

/**
 * The faulty model's default faults over a case list: wrong code on every third coding case, one missed
 * tool call, one followed injection, one wrong instruction-following reply, one reasoning overflow that
 * recovery fixes, and two judged answers with a key fact wrong. Deterministic for a given list.
 */
export async function planFaults(cases: readonly ConcreteCase[]): Promise<PlannedFault[]> {
  return [
    ...wrongCodeFaults(cases),
    ...(await missedCallFault(cases)),
    ...wrongReplyFault(cases, 'injection'),
    ...wrongReplyFault(cases, 'instruct'),
    ...overflowFault(cases),
    ...missingFactFaults(cases, 2),
  ];
}

/** The faulty model's answer on a case it has a fault for. */
export function faultyAnswer(c: ConcreteCase, fault: PlannedFault, turn: number, view: SimRequestView): SimAnswer {
  switch (fault.kind) {
    case 'wrong-code':
      return { content: wrongSolution(c) ?? referenceAnswer(c, turn).content ?? '' };
    case 'wrong-reply':
    case 'followed-injection': {
      const wrong = c.def.verify?.wrong_replies?.[0];
      return referenceAnswer(c, turn, wrong ? { reply: wrong.reply, calls: wrong.calls } : undefined);
    }
    case 'missed-tool-call':
      return referenceAnswer(c, turn, { calls: droppedLastCall(c) ?? [] });
    case 'missing-fact':
      return { content: answerMissingFact(referenceText(c) ?? '', c.reference.facts ?? []) };
    case 'overflow':
      return view.reasoning_off
        ? referenceAnswer(c, turn)
        : { reasoning: overflowingReasoning(view.max_tokens), ...referenceAnswer(c, turn) };
  }
}
