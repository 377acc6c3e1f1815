import type { ChatMessage } from '@crucibleforge/core';
import type { SimAnswer, SimRequestView } from '@crucibleforge/sim-endpoint';
import { readFencedPrompt } from '@crucibleforge/judge';
import { compareWithReference } from './facts';

/** What the judge reads out of a reference-judge prompt (judge package protocol `ref-judge/3`: "Required facts" are the bullets of that section; "Grading focus" is guidance only). */
export interface ReadJudgePrompt {
  question: string;
  reference: string;
  facts: string[];
  /** The text between the BEGIN/END lines that carry the announced token; null when the fence is broken. */
  answer: string | null;
  /** Pairwise prompts: the two fenced answers. */
  pair: { a: string; b: string } | null;
}

function section(text: string, title: string): string | null {
  const m = new RegExp(`(?:^|\\n)# ${title}\\n([\\s\\S]*?)(?=\\n# [A-Z][a-z]|$)`).exec(text);
  return m ? m[1]!.trim() : null;
}

/**
 * Reads the last user message of a judge request. The candidate text is taken only between the marker
 * lines that carry the token the prompt announces ("with token <16 hex>."), so a forged END marker or a
 * claimed verdict inside the answer stays part of the answer.
 */
export function readJudgePrompt(messages: readonly ChatMessage[]): ReadJudgePrompt | null {
  const user = [...messages].reverse().find((m) => m.role === 'user')?.content;
  if (typeof user !== 'string') return null;
  const read = readFencedPrompt(user);
  if (!read) return null;
  const question = section(read.before, 'Question') ?? section(read.before, 'Prompt') ?? '';
  const reference = section(read.before, 'Reference answer') ?? '';
  const facts = (section(read.before, 'Required facts') ?? '')
    .split('\n')
    .filter((l) => /^\s*-\s+/.test(l))
    .map((l) => l.replace(/^\s*-\s*/, '').trim())
    .filter(Boolean);
  const a = read.blocks['ANSWER A'];
  const b = read.blocks['ANSWER B'];
  return { question, reference, facts, answer: read.blocks['CANDIDATE ANSWER'] ?? null, pair: a !== undefined && b !== undefined ? { a, b } : null };
}

/**
 * The simulated judge's answer function: an honest reference judge that decides by comparing the fenced
 * answer with the reference's key facts (see compareWithReference), never by anything the answer claims.
 * Replies with the strict JSON the protocol asks for ({correct, note}; pairwise {winner, note}).
 */
export function judgeAnswer(view: SimRequestView): SimAnswer {
  const read = readJudgePrompt(view.messages);
  if (!read) return { content: JSON.stringify({ correct: false, note: 'could not find the fenced candidate answer in the prompt' }) };
  if (read.pair) {
    const judged = [read.pair.a, read.pair.b].map((answer) => compareWithReference({ reference: read.reference, facts: read.facts, answer }).correct);
    const winner = judged[0] === judged[1] ? 'tie' : judged[0] ? 'A' : 'B';
    const note = winner === 'tie' ? 'both answers agree equally with the reference' : `only answer ${winner} agrees with the reference`;
    return { content: JSON.stringify({ winner, note }) };
  }
  if (read.answer === null) return { content: JSON.stringify({ correct: false, note: 'the candidate answer fence is broken' }) };
  const decision = compareWithReference({ reference: read.reference, facts: read.facts, answer: read.answer });
  return { content: JSON.stringify({ correct: decision.correct, note: decision.note }) };
}
