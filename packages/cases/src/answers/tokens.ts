import { parseRational, rationalEquals, type Rational } from '../text/numbers';
import { numberWordRuns } from './number-words';

/**
 * A text as typed tokens, so that meaning-preserving variants compare equal: number words are numbers
 * ("thirty" = 30), magnitudes are applied ("46 million" = 46000000), currencies are one token after the
 * amount ("€46m" = "46 million euros"), units and plurals are folded ("25-minute" = "25 minutes"), times
 * and dates are values ("5:30 pm" = "17:30", "Thursday 18th June" = "Thursday, June 18"), contractions are
 * expanded ("can't" = "cannot").
 */
export type Token =
  | { t: 'word'; v: string }
  | { t: 'num'; v: Rational; ordinal?: boolean; glued?: 'm' | 'bn' | 'k'; words?: boolean }
  | { t: 'time'; v: string }
  | { t: 'date'; y?: number; m?: number; d?: number; wd?: string; numeric?: boolean }
  | { t: 'cur'; v: string }
  | { t: 'code'; v: string };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_ABBR: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12 };
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const WEEKDAY_ABBR: Record<string, string> = { mon: 'monday', tue: 'tuesday', tues: 'tuesday', wed: 'wednesday', thu: 'thursday', thur: 'thursday', thurs: 'thursday', fri: 'friday', sat: 'saturday', sun: 'sunday' };
const CURRENCY_WORDS: Record<string, string> = {
  '€': 'eur', eur: 'eur', euro: 'eur', euros: 'eur',
  '£': 'gbp', gbp: 'gbp', pound: 'gbp', pounds: 'gbp', sterling: 'gbp',
  $: 'usd', usd: 'usd', dollar: 'usd', dollars: 'usd',
  '¥': 'jpy', jpy: 'jpy', yen: 'jpy',
  chf: 'chf', franc: 'chf', francs: 'chf',
  dkk: 'dkk', nok: 'nok', sek: 'sek', krone: 'dkk', kroner: 'dkk', kronor: 'sek',
};
const MAGNITUDES: Record<string, bigint> = { thousand: 1_000n, million: 1_000_000n, mn: 1_000_000n, billion: 1_000_000_000n, bn: 1_000_000_000n };
const UNIT_WORDS: Record<string, string> = {
  min: 'minute', mins: 'minute', minutes: 'minute', hr: 'hour', hrs: 'hour', hours: 'hour', sec: 'second', secs: 'second', seconds: 'second',
  days: 'day', weeks: 'week', wk: 'week', wks: 'week', months: 'month', mo: 'month', years: 'year', yr: 'year', yrs: 'year',
  pct: 'percent', '%': 'percent', metres: 'metre', meters: 'metre', meter: 'metre', kilometres: 'km', kilometers: 'km', kilometre: 'km', kilometer: 'km',
  milliseconds: 'ms', millisecond: 'ms', msec: 'ms', msecs: 'ms', gigabytes: 'gb', gigabyte: 'gb', megabytes: 'mb', megabyte: 'mb', terabytes: 'tb', terabyte: 'tb',
  kilograms: 'kg', kilogram: 'kg', kgs: 'kg', litres: 'litre', liters: 'litre', liter: 'litre', tonnes: 'tonne', tons: 'tonne', ton: 'tonne',
};
const CONTRACTIONS: Record<string, string[]> = {
  "can't": ['cannot'], "won't": ['will', 'not'], "shan't": ['shall', 'not'], "i'm": ['i', 'am'], "it's": ['it', 'is'], "that's": ['that', 'is'],
  "there's": ['there', 'is'], "let's": ['let', 'us'],
};

const SUFFIXES: [RegExp, string][] = [
  [/n't$/, 'not'],
  [/'ve$/, 'have'],
  [/'re$/, 'are'],
  [/'ll$/, 'will'],
  [/'d$/, 'would'],
  [/'m$/, 'am'],
];

/** "can't" → cannot; "couldn't" → could not; "I've" → I have; a possessive 's is dropped. */
function expandContraction(word: string): string[] {
  const known = CONTRACTIONS[word];
  if (known) return known;
  for (const [re, rest] of SUFFIXES) if (re.test(word)) return [word.replace(re, ''), rest];
  if (word.endsWith("'s")) return [word.slice(0, -2)];
  return [word.replace(/'/g, '')];
}

function fold(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[‘’‛`´]/g, "'")
    .replace(/[“”„]/g, '"')
    .replace(/[‐‑‒–—−]/g, '-')
    .toLowerCase();
}

/** The singular-ish stem both sides of a comparison use ("receipts" = "receipt", "boxes" = "box"). */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (/ies$/.test(word) && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(word)) return word;
  if (/(?:ches|shes|xes|zes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

const LEX = new RegExp(
  [
    String.raw`(?<iso>\d{4}-\d{1,2}-\d{1,2})(?![\d])`,
    String.raw`(?<clock>\d{1,2}[:h]\d{2})(?::\d{2})?(?:\s*(?<ampm>a\.?m\.?|p\.?m\.?)(?![a-z]))?`,
    String.raw`(?<hour>\d{1,2}(?:\.\d{2})?)\s*(?<ampm2>a\.?m\.?|p\.?m\.?)(?![a-z])`,
    String.raw`(?<coord>\d+(?:\.\d+)?)\s*°\s*(?<hemi>[nsew])(?![a-z])`,
    String.raw`(?<numword>\d+(?:\.\d+)?)-(?<unit>[a-z]{3,})(?![a-z0-9-])`,
    String.raw`(?<num>(?:\d{1,3}(?:[,\u2009\u202f_]\d{3})+(?!\d)|\d+)(?:\.\d+)?)(?<ord>st|nd|rd|th)?(?![a-z\d])`,
    String.raw`(?<glued>\d+(?:\.\d+)?)(?<mag>m|bn|k)(?![a-z\d])`,
    String.raw`(?<code>(?=[a-z0-9_/-]*[a-z])(?=[a-z0-9_/-]*\d)[a-z0-9]+(?:[-_/][a-z0-9]+)*)`,
    String.raw`(?<word>\p{L}+(?:'\p{L}+)*)`,
    String.raw`(?<sym>[€£$¥%])`,
  ].join('|'),
  'gu',
);

function timeToken(h: number, m: number, ampm: string | undefined): Token | null {
  let hour = h;
  if (ampm) {
    const pm = ampm.startsWith('p');
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  if (hour > 24 || m > 59) return null;
  return { t: 'time', v: `${String(hour % 24).padStart(2, '0')}:${String(m).padStart(2, '0')}` };
}

const num = (text: string): Rational | null => parseRational(text.replace(/[,\u2009\u202f_]/g, ''));

/** First pass: the raw lexemes of a folded text. */
function lex(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(LEX)) {
    const g = m.groups!;
    const before = m.index > 0 ? text[m.index - 1]! : '';
    const negative = before === '-' && (m.index < 2 || !/[a-z0-9]/.test(text[m.index - 2]!));
    if (g.iso) {
      const [y, mo, d] = g.iso.split('-').map(Number) as [number, number, number];
      out.push({ t: 'date', y, m: mo, d, numeric: true });
    } else if (g.clock) {
      const [h, mi] = g.clock.split(/[:h]/).map(Number) as [number, number];
      out.push(timeToken(h, mi, g.ampm) ?? { t: 'word', v: g.clock });
    } else if (g.hour) {
      const [h, mi] = g.hour.split('.').map(Number) as [number, number | undefined];
      const tok = timeToken(h, mi ?? 0, g.ampm2);
      if (tok) out.push(tok);
    } else if (g.coord) {
      const v = num(g.coord)!;
      out.push({ t: 'num', v: g.hemi === 's' || g.hemi === 'w' ? { num: -v.num, den: v.den } : v });
    } else if (g.numword) {
      out.push({ t: 'num', v: num(negative ? `-${g.numword}` : g.numword)! }, { t: 'word', v: g.unit! });
    } else if (g.code) {
      out.push({ t: 'code', v: g.code });
    } else if (g.num) {
      const v = num(negative ? `-${g.num}` : g.num);
      if (v) out.push({ t: 'num', v, ...(g.ord ? { ordinal: true } : {}) });
    } else if (g.glued) {
      out.push({ t: 'num', v: num(negative ? `-${g.glued}` : g.glued)!, glued: g.mag as 'm' | 'bn' | 'k' });
    } else if (g.word) {
      for (const x of expandContraction(g.word)) out.push({ t: 'word', v: x });
    } else if (g.sym) {
      out.push(g.sym === '%' ? { t: 'word', v: 'percent' } : { t: 'cur', v: CURRENCY_WORDS[g.sym]! });
    }
  }
  return out;
}

const isWord = (t: Token | undefined, ...words: string[]): boolean => t?.t === 'word' && words.includes(t.v);
const intOf = (t: Token | undefined): number | null => (t?.t === 'num' && t.v.den === 1n && !t.glued ? Number(t.v.num) : null);
const monthOf = (t: Token | undefined, strict: boolean): number | null => {
  if (t?.t !== 'word') return null;
  const full = MONTHS.indexOf(t.v);
  if (full >= 0 && !(strict && t.v === 'may')) return full + 1;
  return MONTH_ABBR[t.v] ?? null;
};
const weekdayOf = (t: Token | undefined, abbreviations: boolean): string | null => {
  if (t?.t !== 'word') return null;
  if (WEEKDAYS.includes(t.v)) return t.v;
  return abbreviations ? (WEEKDAY_ABBR[t.v] ?? null) : null;
};

/** Dates: "18th June", "June 18, 2026", "April 2028", with an adjacent weekday merged in. */
function dates(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const a = tokens[i];
    const day = intOf(a);
    let date: Extract<Token, { t: 'date' }> | null = null;
    let used = 0;
    if (day !== null && day >= 1 && day <= 31) {
      const ofGap = isWord(tokens[i + 1], 'of') ? 1 : 0;
      const mo = monthOf(tokens[i + 1 + ofGap], false);
      if (mo !== null) {
        date = { t: 'date', m: mo, d: day };
        used = 2 + ofGap;
        const y = intOf(tokens[i + used]);
        if (y !== null && y >= 1000 && y <= 2999) {
          date.y = y;
          used++;
        }
      }
    }
    if (!date) {
      const mo = monthOf(a, false);
      const next = intOf(tokens[i + 1]);
      const isMay = isWord(a, 'may');
      if (mo !== null && next !== null) {
        if (next >= 1000 && next <= 2999) {
          date = { t: 'date', m: mo, y: next };
          used = 2;
        } else if (next >= 1 && next <= 31 && !isMay) {
          date = { t: 'date', m: mo, d: next };
          used = 2;
          const y = intOf(tokens[i + 2]);
          if (y !== null && y >= 1000 && y <= 2999) {
            date.y = y;
            used = 3;
          }
        }
      }
    }
    if (!date && a?.t === 'date') {
      date = { ...a };
      used = 1;
    }
    if (!date) {
      out.push(a!);
      continue;
    }
    const prevWd = weekdayOf(out[out.length - 1], true);
    if (prevWd) {
      out.pop();
      date.wd = prevWd;
    }
    const nextWd = weekdayOf(tokens[i + used], true);
    if (!date.wd && nextWd) {
      date.wd = nextWd;
      used++;
    }
    out.push(date);
    i += used - 1;
  }
  return out;
}

/** Second pass: number words, magnitudes, currencies after the amount, units and stems, dates. */
function refine(raw: Token[]): Token[] {
  // number words
  const withNumbers: Token[] = [];
  for (let i = 0; i < raw.length; ) {
    const words: string[] = [];
    let j = i;
    while (j < raw.length && raw[j]!.t === 'word') words.push((raw[j++] as { v: string }).v);
    if (words.length === 0) {
      withNumbers.push(raw[i]!);
      i++;
      continue;
    }
    let k = 0;
    for (const run of numberWordRuns(words)) {
      for (; k < run.start; k++) withNumbers.push({ t: 'word', v: words[k]! });
      withNumbers.push({ t: 'num', v: parseRational(run.value)!, words: true });
      k = run.end;
    }
    for (; k < words.length; k++) withNumbers.push({ t: 'word', v: words[k]! });
    i = j;
  }
  // currencies and magnitudes: the currency goes after the amount
  const out: Token[] = [];
  for (let i = 0; i < withNumbers.length; i++) {
    const tok = withNumbers[i]!;
    const cur = tok.t === 'cur' ? tok.v : tok.t === 'word' ? CURRENCY_WORDS[tok.v] : undefined;
    if (cur !== undefined) {
      const prev = out[out.length - 1];
      if (prev?.t === 'cur' && prev.v === cur) continue;
      const next = withNumbers[i + 1];
      if (next?.t === 'num' && !(prev?.t === 'num')) {
        // "€46m", "EUR 46 million": read the amount first, then emit the currency after it
        let value = next.v;
        let used = 1;
        const magWord = withNumbers[i + 2];
        if (next.glued) value = { num: value.num * (next.glued === 'k' ? 1_000n : next.glued === 'm' ? 1_000_000n : 1_000_000_000n), den: value.den };
        else if (magWord?.t === 'word' && MAGNITUDES[magWord.v]) {
          value = { num: value.num * MAGNITUDES[magWord.v]!, den: value.den };
          used = 2;
        }
        out.push({ t: 'num', v: normalise(value) }, { t: 'cur', v: cur });
        i += used;
        continue;
      }
      out.push({ t: 'cur', v: cur });
      continue;
    }
    if (tok.t === 'num') {
      const nextTok = withNumbers[i + 1];
      const afterGlued = withNumbers[i + 1];
      const curAfter = afterGlued?.t === 'cur' || (afterGlued?.t === 'word' && CURRENCY_WORDS[afterGlued.v] !== undefined);
      if (tok.glued && (curAfter || tok.glued === 'bn')) {
        const mult = tok.glued === 'k' ? 1_000n : tok.glued === 'm' ? 1_000_000n : 1_000_000_000n;
        out.push({ t: 'num', v: normalise({ num: tok.v.num * mult, den: tok.v.den }) });
        continue;
      }
      if (tok.glued) {
        out.push({ t: 'num', v: tok.v }, { t: 'word', v: tok.glued === 'm' ? 'metre' : tok.glued });
        continue;
      }
      if (nextTok?.t === 'word' && MAGNITUDES[nextTok.v]) {
        out.push({ t: 'num', v: normalise({ num: tok.v.num * MAGNITUDES[nextTok.v]!, den: tok.v.den }) });
        i++;
        continue;
      }
      out.push(tok);
      continue;
    }
    if (tok.t === 'word') {
      if (tok.v === 'per' && isWord(withNumbers[i + 1], 'cent')) {
        out.push({ t: 'word', v: 'percent' });
        i++;
        continue;
      }
      if (tok.v === 'can' && isWord(withNumbers[i + 1], 'not')) {
        out.push({ t: 'word', v: 'cannot' });
        i++;
        continue;
      }
      out.push({ t: 'word', v: UNIT_WORDS[tok.v] ?? tok.v });
      continue;
    }
    out.push(tok);
  }
  return dates(out).map((t) => (t.t === 'word' ? { t: 'word', v: stem(t.v) } : t));
}

function normalise(r: Rational): Rational {
  return parseRational(`${r.num}/${r.den}`) ?? r;
}

const cache = new Map<string, Token[]>();

/** The typed tokens of a text (cached for long texts, which are tokenised again and again by verify). */
export function tokenize(text: string): Token[] {
  const cached = text.length > 2000 ? cache.get(text) : undefined;
  if (cached) return cached;
  const tokens = refine(lex(fold(text)));
  if (text.length > 2000) {
    if (cache.size > 64) cache.clear();
    cache.set(text, tokens);
  }
  return tokens;
}

/** Whether needle token `n` is satisfied by text token `x`. */
export function tokenMatches(n: Token, x: Token): boolean {
  switch (n.t) {
    case 'word':
      if (x.t === 'word') return x.v === n.v;
      // a month word matches a date written with words ("18 June"), never an ISO date (no month name is written there)
      if (x.t === 'date') return x.wd === n.v || (!x.numeric && x.m !== undefined && (MONTHS[x.m - 1] === n.v || MONTH_ABBR[n.v] === x.m));
      if (x.t === 'code') return x.v === n.v;
      return false;
    case 'num':
      if (x.t === 'num') return rationalEquals(n.v, x.v);
      if (x.t === 'date') return n.v.den === 1n && x.y === Number(n.v.num);
      return false;
    case 'time':
      return x.t === 'time' && x.v === n.v;
    case 'date':
      return x.t === 'date' && (['y', 'm', 'd', 'wd'] as const).every((k) => n[k] === undefined || n[k] === x[k]);
    case 'cur':
      return x.t === 'cur' && x.v === n.v;
    case 'code':
      return x.t === 'code' && x.v.replace(/[^a-z0-9]/g, '') === n.v.replace(/[^a-z0-9]/g, '');
  }
}

/** Where the needle's tokens occur contiguously in the text's tokens (indexes), empty when nowhere. */
export function findTokens(text: Token[], needle: Token[]): number[] {
  const hits: number[] = [];
  if (needle.length === 0) return hits;
  for (let i = 0; i + needle.length <= text.length; i++) {
    let ok = true;
    for (let k = 0; k < needle.length && ok; k++) ok = tokenMatches(needle[k]!, text[i + k]!);
    if (ok) hits.push(i);
  }
  return hits;
}

/** Whether a text contains a needle, both read as typed tokens (see Token). */
export function containsTyped(text: string, needle: string): boolean {
  return findTokens(tokenize(text), tokenize(needle)).length > 0;
}
