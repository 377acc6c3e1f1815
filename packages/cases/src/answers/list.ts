import { cleanValue, stripParentheticals } from './clean';
import type { FinalAnswer } from './final';
import { affixWords, foldWords, HEDGES, isAffix, NEGATIONS, normaliseItem, type AnswerContext, type Normaliser } from './text';

export interface ListSpec {
  normaliser: Normaliser;
  /** "or" joins items (only when the prompt's own wording allows it). */
  or?: boolean;
}

export type ListExtraction = { ok: true; items: string[] } | { ok: false; reason: string };

const BULLET = /^\s*(?:[-*+•]|\d{1,2}[.)]|\(?[a-z]\))\s+/i;
/** A line's ordinal label in a one-item-per-line answer ("Row 1:", "Line 3 -", "Step 2 =", "4:"), not an item. */
const LINE_LABEL = /^\s*(?:(?:row|line|column|col|step|item|round|stage|r|c)\s*#?\s*\d{1,3}|\d{1,3})\s*[:=–—-]\s+(?=\S)/i;

/**
 * The lines an answer list spans: the value's own line, or — when the label ends its line or the value
 * is a bullet — the run of following list lines (bullets, numbered lines, short bare lines) up to a blank line.
 */
export function answerBlock(final: FinalAnswer): string {
  const lines = final.rest.split('\n');
  const first = lines[0] ?? '';
  const takesBlock = final.source !== 'boxed' && (BULLET.test(first) || first.trim() === final.value.trim()) && lines.length > 1;
  if (!takesBlock) return final.value;
  const block: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') {
      if (block.length > 0) break;
      continue;
    }
    const bare = line.replace(BULLET, '').trim();
    const isListLine = BULLET.test(line) || (bare.length <= 80 && !/[.!?]\s*$/.test(bare) && !/^(?:let me|i hope|if you|note|hope)/i.test(bare));
    if (!isListLine) break;
    block.push(line);
  }
  if (block.length <= 1) return final.value;
  return block.join('\n');
}

/** Whether a raw token looks like an item of a "shaped" kind (codes, letters, bit rows, numbers, times). */
function shaped(token: string, n: Normaliser): boolean {
  if (n === 'code') return /\d/.test(token) || /^[A-Z]{1,3}$/.test(token);
  if (n === 'letter') return /^[A-Z]$/.test(token);
  return normaliseItem(token, n) !== null;
}

/**
 * The items of a list answer, in order: separated by commas, semicolons, "and", "&", "then", arrows,
 * bars or line breaks (and spaces, for codes, times and numbers); a harmless prefix repeating the
 * question's words is dropped ("Coins I and J", "Statements 2, 4 and 5 are true", "Knights: Ilse, Tam").
 * "or" is a hedge unless the spec allows it; a negation ("I and J, not K") qualifies the answer and fails.
 */
export function extractList(block: string, spec: ListSpec, expected: string[], ctx: AnswerContext): ListExtraction {
  const n = spec.normaliser;
  let lines = block.split('\n').map((l) => cleanValue(l.replace(BULLET, ''))).filter(Boolean);
  // one item per line, each under an ordinal label: the labels are not items
  if (lines.length > 1 && lines.every((l) => LINE_LABEL.test(l))) lines = lines.map((l) => l.replace(LINE_LABEL, ''));
  let v = stripParentheticals(lines.join(', '));
  if (!spec.or && HEDGES.test(v) && !expected.some((e) => HEDGES.test(e))) return { ok: false, reason: `a hedge between alternatives: "${v.slice(0, 60)}"` };
  if (NEGATIONS.test(v) && !expected.some((e) => NEGATIONS.test(e))) return { ok: false, reason: `the answer qualifies itself: "${v.slice(0, 60)}"` };
  const affixes = affixWords(ctx);
  const prefix = /^([^:,]{1,40}):\s*(?=\S)/.exec(v);
  if (prefix && foldWords(prefix[1]!).every((w) => isAffix(w, affixes))) v = v.slice(prefix[0].length);
  const andInItems = expected.some((e) => /\band\b|&/i.test(e));
  const separators = new RegExp(String.raw`\s*(?:[,;|→⟶]|->|=>|${andInItems ? '' : String.raw`&|\band\b|`}\bthen\b${spec.or ? String.raw`|\bor\b` : ''})\s*`, 'i');
  let raw = v.split(separators).map((s) => s.trim()).filter(Boolean);
  // single letters or digits written together: "SQTPR" for S, Q, T, P, R
  const solid = raw.length === 1 ? raw[0]!.replace(/[^\p{L}\p{N}]/gu, '') : '';
  if (expected.length > 1 && expected.every((e) => e.trim().length === 1) && solid.length === expected.length && !/\s/.test(raw[0]!.trim())) raw = [...solid];
  if (n !== 'fold' && n !== 'exact') {
    // codes, times, numbers: words around them are noise; spaces separate items
    const tokens = raw.flatMap((r) => (n === 'time' ? [r] : r.split(/\s+/)));
    // trim punctuation around each token (a number keeps its sign)
    const trim = (t: string) => t.replace(n === 'number' ? /^[^\p{L}\p{N}+\-−]+|[^\p{L}\p{N}]+$/gu : /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    raw = tokens
      .map(trim)
      .flatMap((t) => (n === 'letter' && /^[A-Z]{2,}$/.test(t) ? [...t] : [t]))
      .filter((t) => shaped(t, n));
  } else {
    raw = raw
      .map((item) => {
        const words = item.split(/\s+/);
        let i = 0;
        let j = words.length;
        // strip harmless words around the item, never its last word ("draw" stays "draw")
        while (i < j - 1 && foldWords(words[i]!).every((w) => isAffix(w, affixes))) i++;
        while (j > i + 1 && foldWords(words[j - 1]!).every((w) => isAffix(w, affixes))) j--;
        return words.slice(i, j).join(' ');
      })
      .filter(Boolean);
  }
  const items = raw.map((r) => normaliseItem(r, n));
  const bad = raw.find((_, i) => items[i] === null);
  if (bad !== undefined) return { ok: false, reason: `"${bad.slice(0, 30)}" is not a ${n === 'time' ? 'time' : n === 'number' ? 'number' : 'valid item'}` };
  if (items.length === 0) return { ok: false, reason: 'no items in the answer' };
  return { ok: true, items: items as string[] };
}

/** Splits a reference answer into its items the same way (commas, a final "and", spaces for codes; an "and" inside an item stays). */
export function referenceItems(answer: string, spec: ListSpec): string[] {
  const written = answer.includes(',') ? answer.replace(/,?\s+(?:and|&)\s+(?=[^,]*$)/iu, ', ') : answer;
  const r = extractList(written, spec, [written], {});
  return r.ok ? r.items : [answer];
}

/** Equal as lists (order matters) or as sets (it does not); grids of equal-length rows also compare as their concatenation. */
export function itemsEqual(got: string[], want: string[], ordered: boolean): boolean {
  if (!ordered) {
    const a = [...got].sort();
    const b = [...want].sort();
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (got.length === want.length && got.every((x, i) => x === want[i])) return true;
  const rowLength = want[0]?.length ?? 0;
  return want.length > 1 && rowLength > 1 && want.every((w) => w.length === rowLength) && got.join('') === want.join('');
}
