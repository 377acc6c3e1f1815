import { formatRational, numbersIn, numbersMatch, parseRational, type Rational } from '../text/numbers';
import { cleanValue, stripParentheticals, valueHead } from './clean';
import { parseNumberWords } from './number-words';

export type NumberExtraction = { ok: true; value: Rational } | { ok: false; reason: string };

/** Plain-space thousands groups of an answer value as thin spaces: `141 566 219` → one number. */
function joinSpaceGroups(v: string): string {
  return v.replace(/(?<![\d.,])\d{1,3}(?:[ \u00a0]\d{3})+(?![\d.,]|\s\d)/g, (m) => m.replace(/[ \u00a0]/g, '\u2009'));
}

/** The segment of `a = b = c` that states the value: the last one after an `=` (an `≈` approximation is skipped). */
function equationValue(v: string): string {
  if (!/[=≈]/.test(v)) return v;
  const parts = v.split(/(=|≈)/);
  for (let i = parts.length - 1; i >= 0; i -= 2) {
    const seg = parts[i]!;
    const op = parts[i - 1];
    if (numbersIn(seg).length > 0 && op !== '≈') return seg;
  }
  return parts[parts.length - 1]!;
}

/**
 * The number an answer value states: `327`, `141 566 219`, `1,234,567`, `1_000`, `3/4`, `\frac{3}{4}`,
 * `0.75`, `$327$`, `**327** routes`, `327 (Q(6) = 2R(5)+1)`, `x = 5`, `455, because m = 23`, `twelve`.
 * Units and remarks are ignored. Two different numbers in the value itself (`12 or 15`, `10-12`) are a
 * hedge and fail.
 */
export function extractNumber(raw: string): NumberExtraction {
  const cleaned = stripParentheticals(cleanValue(raw));
  const head = joinSpaceGroups(equationValue(valueHead(cleaned)));
  const nums = numbersIn(head);
  if (nums.length === 0) {
    const words = parseNumberWords(head.replace(/[^\p{L}\s-]/gu, ' ').trim().split(/\s+/).filter((w) => !/^(?:the|is|it|answer|exactly|about)$/i.test(w)).join(' '));
    if (words !== null) return { ok: true, value: parseRational(words)! };
    return { ok: false, reason: `no number in "${raw.slice(0, 40)}"` };
  }
  const first = nums[0]!;
  const other = nums.find((n) => !numbersMatch(n.value, first.value));
  if (other) return { ok: false, reason: `two values in the final answer: ${formatRational(first.value)} and ${formatRational(other.value)}` };
  return { ok: true, value: first.value };
}
