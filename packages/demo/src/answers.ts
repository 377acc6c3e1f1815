import type { ToolCall } from '@crucibleforge/core';
import { referenceTurn, type ConcreteCase, type RefCall } from '@crucibleforge/cases';
import { simTokenize, type SimAnswer } from '@crucibleforge/sim-endpoint';
import { compareWithReference } from './facts';

const FENCE = { python: 'python', node: 'javascript' } as const;

export function toSimCalls(calls: readonly ToolCall[]): NonNullable<SimAnswer['tool_calls']> {
  return calls.map((c) => ({ name: c.name, arguments: c.arguments }));
}

/** What a correct model says on assistant turn `turn` of a case (reference calls, then the reference text). */
export function referenceAnswer(c: ConcreteCase, turn: number, override?: { reply?: string | undefined; calls?: RefCall[][] | undefined }): SimAnswer {
  const t = referenceTurn(c, turn, override);
  if (t.tool_calls.length > 0) return { content: t.content, tool_calls: toSimCalls(t.tool_calls) };
  return { content: t.content.trim() === '' ? 'I do not know the answer to this one.' : t.content };
}

/** The first wrong solution that fails by being wrong (a too-slow one would only cost the demo time). */
export function wrongSolution(c: ConcreteCase): string | null {
  const g = c.grader;
  if (g.type !== 'code') return null;
  const wrong = c.def.verify?.wrong_solutions?.find((w) => !w.too_slow);
  return wrong ? `\`\`\`${FENCE[g.language]}\n${wrong.code.trimEnd()}\n\`\`\`` : null;
}

/** The reference calls with the last call of the last calling turn left out (that turn dropped when it empties). */
export function droppedLastCall(c: ConcreteCase): RefCall[][] | null {
  const calls = c.reference.calls;
  if (!calls?.length) return null;
  const lastTurn = calls.map((t, i) => (t.length > 0 ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
  if (lastTurn < 0) return null;
  const turn = calls[lastTurn]!.slice(0, -1);
  return turn.length > 0 ? [...calls.slice(0, lastTurn), turn, ...calls.slice(lastTurn + 1)] : calls.slice(0, lastTurn);
}

/**
 * A judged answer with one key fact made wrong: the numbers of a fact nudged by one, or the sentences
 * that carry a fact's words dropped. Checked against the simulated judge's own comparison; a
 * non-committal answer when no edit is caught.
 */
export function answerMissingFact(reference: string, facts: readonly string[]): string {
  const rejected = (answer: string) => answer.trim() !== '' && !compareWithReference({ reference, facts, answer }).correct;
  for (const fact of facts) {
    const numbers = [...fact.matchAll(/\d+/g)].map((m) => m[0]);
    if (numbers.length > 0) {
      let edited = reference;
      for (const n of numbers) edited = edited.replace(new RegExp(`(?<![\\d.,])${n}(?![\\d])`, 'g'), String(Number(n) + 1));
      if (rejected(edited)) return edited;
    }
    const sentences = reference.split(/(?<=[.!?])\s+/);
    const words = fact.toLowerCase().match(/[a-z]{5,}/g) ?? [];
    const kept = sentences.filter((s) => !words.some((w) => s.toLowerCase().includes(w)));
    if (kept.length > 0 && kept.length < sentences.length && rejected(kept.join(' '))) return kept.join(' ');
  }
  return 'It could be one of several things; I am not sure, and it is hard to say without more information.';
}

const OVERTHINK = 'Let me re-check that step once more before I commit to an answer. ';

/** A reasoning text longer than the request's token budget (the sim then cuts it: finish length, no content). */
export function overflowingReasoning(maxTokens: number | null): string {
  const budget = maxTokens ?? 4096;
  const perPhrase = simTokenize(OVERTHINK.repeat(2)).length - simTokenize(OVERTHINK).length;
  let text = OVERTHINK.repeat(Math.ceil((budget + 16) / perPhrase));
  while (simTokenize(text).length <= budget + 16) text += OVERTHINK;
  return text;
}

/** What the models say to a prompt that is no case (the speed benchmark's prompts, a health check). */
export const FILLER_ANSWER = [
  'The lighthouse stood on a shelf of black rock where the sea broke white in every season.',
  'Its keeper climbed the spiral stair each evening, trimmed the wick, wound the clockwork that turned',
  'the lens, and wrote the weather into a ledger whose pages had gone soft with salt. Ships he never',
  'saw read his light from miles away and turned their bows a little north, and that was the whole of',
  'the arrangement: a man, a lamp, a turning lens and a promise kept to strangers. In winter the spray',
  'froze on the gallery rail; in summer the gulls argued on the roof; and every night, whatever the',
  'season, the beam went round, steady as a heartbeat, over water that did not care and sailors who did.',
].join(' ');
