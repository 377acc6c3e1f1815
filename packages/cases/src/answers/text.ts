import { formatRational } from '../text/numbers';
import { cleanValue, stripParentheticals, valueHead } from './clean';
import { extractNumber } from './number';
import { tokenize } from './tokens';

/**
 * How a short answer (or each item of a list) is compared:
 * - `fold`: case, punctuation, dashes and spacing do not matter (names, words);
 * - `code`: only letters and digits count, any case (`7Q-8814` = `7q 8814`; lot codes, badge codes, bit rows);
 * - `time`: a clock time (`9:27` = `09:27` = `9.27 am`; `9:27 pm` = `21:27`);
 * - `number`: a number (`1,234` = `1234`, `3/4` = `0.75`);
 * - `letter`: one capital letter (`B`, `(B)`, `**B**`); in a list, other tokens (question numbers) are noise;
 * - `exact`: case-sensitive after trimming and collapsing spaces.
 * `fold` also writes clock times one way (`Monday 9:00` = `Monday 09:00`).
 */
export type Normaliser = 'fold' | 'code' | 'time' | 'number' | 'letter' | 'exact';

/** What an extractor knows about the question: its text (words a harmless prefix may repeat). */
export interface AnswerContext {
  /** The prompt the model saw (system + user turns), without a long-context haystack. */
  question?: string;
}

export function foldWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’']/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The normal form of one answer item, or null when it is not one (a time that is not a time). */
export function normaliseItem(item: string, n: Normaliser): string | null {
  const v = item.trim();
  switch (n) {
    case 'fold':
      return foldWords(v.replace(/(?<![\d:.])(\d{1,2})[:.](\d{2})(?![\d:])/g, (_, h: string, m: string) => `${h.padStart(2, '0')}:${m}`)).join(' ') || null;
    case 'letter': {
      const m = /^[(\[*_`"']*([A-Za-z])[)\].*_`"':]*$/.exec(v);
      return m ? m[1]!.toUpperCase() : null;
    }
    case 'exact':
      return v.replace(/\s+/g, ' ') || null;
    case 'code':
      return v.normalize('NFKC').toUpperCase().replace(/[^\p{L}\p{N}]/gu, '') || null;
    case 'time': {
      const t = tokenize(v).filter((x) => x.t === 'time');
      if (t.length === 1 && t[0]!.t === 'time') return t[0]!.v;
      const m = /^(\d{1,2})[:.h](\d{2})$/.exec(v);
      return m && Number(m[1]) < 24 && Number(m[2]) < 60 ? `${m[1]!.padStart(2, '0')}:${m[2]}` : null;
    }
    case 'number': {
      const r = extractNumber(v);
      return r.ok ? formatRational(r.value) : null;
    }
  }
}

const STOP = ['a', 'an', 'the', 'is', 'are', 'was', 'were', 'it', 'its', 'of', 'in', 'at', 'on', 'for', 'both', 'only', 'here', 'this', 'that', 'these', 'those', 'answer', 'final', 'my', 'so'];
/** Words that change what an answer says: never a harmless prefix. */
export const NEGATIONS = /\b(?:not|no|never|neither|nor|except|excluding|without|none|isn['’]?t|aren['’]?t|wasn['’]?t|weren['’]?t)\b/i;
/** Words that offer alternatives: a hedge unless the grader allows them. */
export const HEDGES = /\b(?:or|either|maybe|possibly|perhaps)\b/i;

const affixCache = new Map<string, Set<string>>();

/**
 * Words a harmless prefix or suffix may consist of: the question's own common words (those it writes in
 * lower case — names, codes and numbers never qualify), articles and copulas; never a negation or a hedge.
 */
export function affixWords(ctx: AnswerContext): Set<string> {
  const q = ctx.question ?? '';
  const hit = affixCache.get(q);
  if (hit) return hit;
  const words = new Set(STOP);
  for (const m of q.matchAll(/(?<![\p{L}\p{N}_-])[\p{Ll}]+(?![\p{L}\p{N}_-])/gu)) words.add(m[0]);
  for (const w of [...words]) if (NEGATIONS.test(w) || HEDGES.test(w)) words.delete(w);
  if (affixCache.size > 256) affixCache.clear();
  affixCache.set(q, words);
  return words;
}

/** Plural-insensitive membership ("coins" when the question says "coin"). */
export function isAffix(word: string, affixes: Set<string>): boolean {
  return affixes.has(word) || affixes.has(word.replace(/e?s$/, '')) || affixes.has(`${word}s`);
}

/**
 * A short text answer against the accepted forms (reference and alternatives): equal after the
 * normaliser, or equal once a harmless prefix/suffix that repeats the question's words is dropped
 * ("lot 7Q-8814", "the Greyfold well"). Alternatives offered with "or" fail as a hedge.
 */
export function matchText(value: string, accepted: string[], n: Normaliser, ctx: AnswerContext): { pass: boolean; got: string; reason?: string } {
  const cleaned = cleanValue(value);
  const acceptedNorm = accepted.map((a) => normaliseItem(a, n)).filter((a): a is string => a !== null);
  const allowsHedgeWord = accepted.some((a) => HEDGES.test(a));
  if (!allowsHedgeWord && HEDGES.test(stripParentheticals(cleaned))) return { pass: false, got: cleaned, reason: `a hedge between alternatives: "${cleaned.slice(0, 60)}"` };
  const candidates = [...new Set([cleaned, stripParentheticals(cleaned), valueHead(stripParentheticals(cleaned))])];
  for (const c of candidates) {
    const norm = normaliseItem(c, n);
    if (norm !== null && acceptedNorm.includes(norm)) return { pass: true, got: norm };
  }
  const affixes = affixWords(ctx);
  for (const c of candidates) {
    if (n !== 'exact' && NEGATIONS.test(c) && !accepted.some((a) => NEGATIONS.test(a))) continue;
    const words = c.split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i++) {
      for (let j = words.length; j > i; j--) {
        if (i === 0 && j === words.length) continue;
        const outside = [...words.slice(0, i), ...words.slice(j)].flatMap(foldWords);
        if (!outside.every((w) => isAffix(w, affixes))) continue;
        const norm = normaliseItem(words.slice(i, j).join(' '), n);
        if (norm !== null && acceptedNorm.includes(norm)) return { pass: true, got: norm };
      }
    }
  }
  const shown = normaliseItem(valueHead(stripParentheticals(cleaned)), n) ?? cleaned;
  return { pass: false, got: shown };
}
