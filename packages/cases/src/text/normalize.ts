import { numbersIn, numbersMatch, parseRational } from './numbers';

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Lowercases, unifies quotes and dashes, collapses whitespace. */
export function foldText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[‘’‛`]/g, "'")
    .replace(/[“”„]/g, '"')
    .replace(/[‐‑‒–—]/g, '-')
    .replace(/\s+/g, ' ')
    .toLowerCase()
    .trim();
}

/**
 * Whole-word, case-insensitive search. A needle that is a number matches the same number written any
 * way (`1,234` = `1234` = `1234.0`) and never a longer one (`16` does not match `160` or `16.5`).
 */
export function containsNeedle(text: string, needle: string): boolean {
  const asNumber = /^\s*[-−]?[\d,.\s/]+\s*$/.test(needle) ? parseRational(needle) : null;
  if (asNumber) return numbersIn(text).some((n) => numbersMatch(n.value, asNumber));
  const folded = foldText(text);
  const n = foldText(needle);
  if (n.length === 0) return false;
  const pattern = escapeRegExp(n).replace(/ /g, '\\s+');
  const startsWord = /^[\p{L}\p{N}_]/u.test(n);
  const endsWord = /[\p{L}\p{N}_]$/u.test(n);
  const re = new RegExp(`${startsWord ? '(?<![\\p{L}\\p{N}_])' : ''}${pattern}${endsWord ? '(?![\\p{L}\\p{N}_])' : ''}`, 'u');
  return re.test(folded);
}

/** Counts whole-word occurrences of a word or phrase (case-insensitive). */
export function countWord(text: string, word: string): number {
  const n = foldText(word);
  if (!n) return 0;
  const re = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(n).replace(/ /g, '\\s+')}(?![\\p{L}\\p{N}_])`, 'gu');
  return [...foldText(text).matchAll(re)].length;
}

const LABEL_DECOR = String.raw`[*_#>\s]*`;

/**
 * Every `<label>:` (or `=`) with the rest of its line, in order: at the start of a line (any case,
 * optionally "final", markdown bold allowed), or mid-line when written exactly as the label is given
 * ("…on second thought, Answer: 839"). `Answer: 42 (mod 1000)` → `42 (mod 1000)`.
 */
export function labelledLines(text: string, label = 'Answer'): string[] {
  const l = escapeRegExp(label);
  const lineStart = new RegExp(String.raw`(?:^|\n)${LABEL_DECOR}(?:final\s+)?${l}${LABEL_DECOR}[:=]`, 'gi');
  const midLine = new RegExp(String.raw`(?<![\p{L}\p{N}_])(?:[Ff]inal\s+)?${l}[*_]*:`, 'gu');
  const starts = new Map<number, number>();
  for (const m of text.matchAll(lineStart)) starts.set(m.index + m[0].length, m.index);
  for (const m of text.matchAll(midLine)) {
    const end = m.index + m[0].length;
    if (![...starts.keys()].some((k) => Math.abs(k - end) <= 4)) starts.set(end, m.index);
  }
  return [...starts.keys()]
    .sort((a, b) => a - b)
    .map((end) => {
      const clean = (s: string) => s.replace(/^[*_\s]+/, '').replace(/[*_]+\s*$/, '').trim();
      const nl = text.indexOf('\n', end);
      const value = clean(text.slice(end, nl < 0 ? undefined : nl));
      if (value || nl < 0) return value;
      // "Answer:" alone on its line: the value is the next non-blank line
      const next = text.slice(nl + 1).split('\n').find((line) => line.trim() !== '');
      return clean(next ?? '');
    });
}

/** The value after the last label, or null when there is no label. */
export function lastLabelled(text: string, label = 'Answer'): string | null {
  const all = labelledLines(text, label);
  return all.length === 0 ? null : all[all.length - 1]!;
}

/** Strips `\boxed{…}`, `$…$`, markdown emphasis and a trailing period from an answer value. */
export function cleanAnswerValue(value: string): string {
  let v = value.trim();
  const boxed = /\\boxed\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}/.exec(v);
  if (boxed) v = boxed[1]!;
  v = v.replace(/^\$+|\$+$/g, '').replace(/^[*_`]+|[*_`]+$/g, '').trim();
  v = v.replace(/\.$/, '').trim();
  return v;
}
