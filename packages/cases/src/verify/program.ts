import type { Sandbox } from '@crucibleforge/sandbox';
import { jsonEqual } from '../text/json';
import { escapeRegExp, foldText, squashText } from '../text/normalize';
import { parseRational, rationalEquals } from '../text/numbers';
import type { ConcreteCase } from '../types';

export const VERIFY_PROGRAM_TIMEOUT_MS = 30_000;

/** Answers are equal as numbers (exact rationals), as key → value maps, or as folded text. */
export function answersEqual(a: unknown, b: unknown): boolean {
  if (a !== null && typeof a === 'object' && b !== null && typeof b === 'object') {
    const norm = (x: unknown) => JSON.parse(JSON.stringify(x), (_, v: unknown) => (typeof v === 'string' ? foldText(v) : v));
    return jsonEqual(norm(a), norm(b));
  }
  if ((typeof a === 'string' || typeof a === 'number') && (typeof b === 'string' || typeof b === 'number')) {
    const ra = parseRational(a);
    const rb = parseRational(b);
    if (ra && rb) return rationalEquals(ra, rb);
    return foldText(String(a)) === foldText(String(b));
  }
  return false;
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v)).slice(0, 80);

/**
 * The answer written literally in a program's source (a number as a whole token, a text of two or more
 * characters as a quoted string): a program that prints its answer proves nothing.
 */
export function answerLiteral(source: string, answer: unknown): string | null {
  if (typeof answer === 'number' || (typeof answer === 'string' && parseRational(answer) !== null)) {
    const text = String(answer);
    return new RegExp(`(?<![\\w.])${escapeRegExp(text)}(?![\\w.])`).test(source) ? text : null;
  }
  if (typeof answer === 'string' && answer.trim().length >= 2) {
    return new RegExp(`["']${escapeRegExp(answer.trim())}["']`).test(source) ? answer.trim() : null;
  }
  return null;
}

export interface ProgramOutcome {
  problem: string | null;
  /** The re-derived answer (or the unique solution), for the across-seeds check. */
  derived?: unknown;
}

/**
 * Runs the case's verify program in the sandbox (stdin: {seed, params, vars}) and checks what it proves:
 * `answer` — its answer equals the reference (and, for an unseeded case, the answer is not written in the
 * program); `unique_solution` — exactly one solution, equal to the reference, found with clues whose text
 * the program prints (`{"solutions": [...], "clues": ["…", …]}`) and that each appear in the prompt the
 * model sees, so a clue that exists only in the program (or was deleted from the prompt) is caught.
 */
export async function checkVerifyProgram(c: ConcreteCase, sandbox: Sandbox): Promise<ProgramOutcome> {
  const spec = c.def.verify!;
  const result = await sandbox.run({
    language: spec.language ?? 'python',
    source: spec.program!,
    stdin: JSON.stringify({ seed: c.seed, params: c.params, vars: c.vars }),
    timeoutMs: VERIFY_PROGRAM_TIMEOUT_MS,
  });
  if (result.status !== 'ok') {
    const err = result.stderr.trim().split('\n').pop() ?? '';
    return { problem: `verify program ${result.status}${err ? `: ${err.slice(0, 160)}` : ''}` };
  }
  const lastLine = result.stdout.trim().split('\n').pop() ?? '';
  let out: unknown = lastLine;
  try {
    out = JSON.parse(lastLine);
  } catch {
    // a plain-text answer
  }
  const want = c.reference.answer;
  if (spec.expect === 'unique_solution') {
    const o = out !== null && typeof out === 'object' ? (out as { solutions?: unknown; clues?: unknown }) : {};
    if (!Array.isArray(o.solutions)) return { problem: 'unique_solution program must print {"solutions": [...], "clues": [...]}' };
    const clues = o.clues;
    if (!Array.isArray(clues) || clues.length === 0 || !clues.every((x) => typeof x === 'string' && x.trim() !== '')) {
      return { problem: 'unique_solution program must print the text of every clue it uses ("clues": ["…", …]), so verify can check them against the prompt' };
    }
    const prompt = squashText([c.system ?? '', ...c.turns].join('\n'));
    const missing = (clues as string[]).find((clue) => !prompt.includes(squashText(clue)));
    if (missing !== undefined) return { problem: `the program uses a clue the prompt does not state: "${missing.slice(0, 100)}"` };
    if (o.solutions.length !== 1) return { problem: `the puzzle has ${o.solutions.length} solutions, not exactly one${o.solutions.length > 1 ? ` (e.g. ${show(o.solutions[0])} and ${show(o.solutions[1])})` : ''}` };
    return answersEqual(o.solutions[0], want)
      ? { problem: null, derived: o.solutions[0] }
      : { problem: `the only solution ${show(o.solutions[0])} differs from the reference ${show(want)}` };
  }
  const got = out !== null && typeof out === 'object' && !Array.isArray(out) && 'answer' in out ? (out as { answer: unknown }).answer : out;
  if (!answersEqual(got, want)) return { problem: `re-derived ${show(got)}, but the reference answer is ${show(want)}` };
  if (c.seed === null) {
    const literal = answerLiteral(spec.program!, want);
    if (literal !== null) return { problem: `the verify program contains the answer literal "${literal}": it must compute the answer, not print it` };
  }
  return { problem: null, derived: got };
}
