import { buildHaystack, scatteredLines } from '../haystack/build';
import type { MaterializedCase } from '../materialize';
import { containsNeedle } from '../text/normalize';

function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Tolerance of the built size against the spec's `tokens`. */
export const HAYSTACK_SIZE_TOLERANCE = 0.15;

/**
 * Rebuilds the haystack and checks it: deterministic, every needle present exactly once, the counted
 * sentence exactly `times`, every scattered line exactly once and not in the filler, the size near the target, answer needles absent from the filler (so only the
 * inserted sentences can answer), and `min_context` large enough for prompt + answer budget.
 */
export function haystackProblems(c: MaterializedCase): string[] {
  const h = c.haystack;
  if (!h) return [];
  const spec = h.spec;
  const problems: string[] = [];
  if (buildHaystack(spec, h.seed).text !== h.text) problems.push('haystack is not deterministic (a rebuild differs)');
  (spec.needles ?? []).forEach((needle, i) => {
    const n = occurrences(h.text, needle.text);
    if (n !== 1) problems.push(`needle ${i + 1} occurs ${n} times, expected once`);
  });
  if (spec.count) {
    const n = occurrences(h.text, spec.count.text);
    if (n !== spec.count.times) problems.push(`counted sentence occurs ${n} times, expected ${spec.count.times}`);
  }
  scatteredLines(spec).forEach((line, i) => {
    const n = occurrences(h.text, line);
    if (n !== 1) problems.push(`scattered line ${i + 1} occurs ${n} times, expected once`);
    else if (h.filler.includes(line)) problems.push(`scattered line ${i + 1} also occurs in the filler text`);
  });
  const ratio = h.tokens / spec.tokens;
  if (Math.abs(ratio - 1) > HAYSTACK_SIZE_TOLERANCE) problems.push(`haystack is ~${h.tokens} tokens, spec says ${spec.tokens}`);
  const g = c.grader;
  const answerNeedles = g.type === 'contains' ? [...(g.all ?? []), ...(g.any ?? [])] : g.type === 'number' || g.type === 'exact' ? [String(c.reference.answer)] : [];
  // An answer that a needle states must not also be findable in the filler (counts are not stated, so skip them).
  const stated = answerNeedles.filter((a) => (spec.needles ?? []).some((n) => containsNeedle(n.text, a)));
  for (const a of stated) if (containsNeedle(h.filler, a)) problems.push(`answer "${a}" also occurs in the filler text`);
  if (!c.turns.some((t) => t.includes(h.text))) problems.push('the prompt does not contain the haystack');
  const needed = c.prompt_tokens + c.max_tokens;
  if (c.min_context !== null && c.min_context < needed) problems.push(`min_context ${c.min_context} < prompt (~${c.prompt_tokens}) + max_tokens (${c.max_tokens})`);
  return problems;
}
