import { containsTyped } from '../answers/tokens';

const THINK_PAIRS: [RegExp, RegExp][] = [
  [/<think(?:ing)?>/i, /<\/think(?:ing)?>/i],
  [/<\|thinking\|>/i, /<\|\/thinking\|>|<\/\|thinking\|>/i],
];

/**
 * Removes inline reasoning that leaked into the content channel (`<think>…</think>` and friends).
 * An unclosed opener drops the rest; a stray closer drops everything before it (the text before a lone
 * `</think>` is reasoning whose opener the server ate).
 */
export function stripThinking(text: string): string {
  let out = text;
  for (const [open, close] of THINK_PAIRS) {
    for (;;) {
      const o = open.exec(out);
      const c = close.exec(out);
      if (c && (!o || c.index < o.index)) {
        out = out.slice(c.index + c[0].length);
        continue;
      }
      if (!o) break;
      const rest = out.slice(o.index + o[0].length);
      const c2 = close.exec(rest);
      out = c2 ? out.slice(0, o.index) + rest.slice(c2.index + c2[0].length) : out.slice(0, o.index);
    }
  }
  return out.trim();
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Unifies quotes and dashes and collapses whitespace; case is kept. */
export function squashText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[‘’‛`]/g, "'")
    .replace(/[“”„]/g, '"')
    .replace(/[‐‑‒–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Lowercases, unifies quotes and dashes, collapses whitespace. */
export function foldText(text: string): string {
  return squashText(text).toLowerCase();
}

/**
 * Whole-word, case-insensitive search of a needle, both read as typed tokens (answers/tokens.ts): a number
 * matches the same number written any way (`1,234` = `1234` = `one thousand two hundred and thirty-four`)
 * and never a longer one (`16` does not match `160` or `16.5`); currencies, magnitudes, units, plurals,
 * times, dates and contractions match their variants (`46 million euros` = `€46m`, `25 minutes` =
 * `25-minute`, `Thursday 18th June` = `Thursday, June 18`, `cannot` = `can't`).
 */
export function containsNeedle(text: string, needle: string): boolean {
  return containsTyped(text, needle);
}

/** Counts whole-word occurrences of a word or phrase (case-insensitive). */
export function countWord(text: string, word: string): number {
  const n = foldText(word);
  if (!n) return 0;
  const re = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(n).replace(/ /g, '\\s+')}(?![\\p{L}\\p{N}_])`, 'gu');
  return [...foldText(text).matchAll(re)].length;
}
