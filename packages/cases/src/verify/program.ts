import type { Sandbox } from '@crucibleforge/sandbox';
import { jsonEqual } from '../text/json';
import { foldText } from '../text/normalize';
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
 * Runs the case's verify program in the sandbox (stdin: {seed, params, vars}) and checks what it proves:
 * `answer` — its answer equals the reference; `unique_solution` — exactly one solution, equal to the reference.
 * Returns the problem, or null.
 */
export async function checkVerifyProgram(c: ConcreteCase, sandbox: Sandbox): Promise<string | null> {
  const spec = c.def.verify!;
  const result = await sandbox.run({
    language: spec.language ?? 'python',
    source: spec.program!,
    stdin: JSON.stringify({ seed: c.seed, params: c.params, vars: c.vars }),
    timeoutMs: VERIFY_PROGRAM_TIMEOUT_MS,
  });
  if (result.status !== 'ok') {
    const err = result.stderr.trim().split('\n').pop() ?? '';
    return `verify program ${result.status}${err ? `: ${err.slice(0, 160)}` : ''}`;
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
    const solutions = out !== null && typeof out === 'object' ? (out as { solutions?: unknown }).solutions : undefined;
    if (!Array.isArray(solutions)) return 'unique_solution program must print {"solutions": [...]}';
    if (solutions.length !== 1) return `the puzzle has ${solutions.length} solutions, not exactly one${solutions.length > 1 ? ` (e.g. ${show(solutions[0])} and ${show(solutions[1])})` : ''}`;
    return answersEqual(solutions[0], want) ? null : `the only solution ${show(solutions[0])} differs from the reference ${show(want)}`;
  }
  const got = out !== null && typeof out === 'object' && !Array.isArray(out) && 'answer' in out ? (out as { answer: unknown }).answer : out;
  return answersEqual(got, want) ? null : `re-derived ${show(got)}, but the reference answer is ${show(want)}`;
}
