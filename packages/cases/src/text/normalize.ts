import { containsTyped } from '../answers/tokens';

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
