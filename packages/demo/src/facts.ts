import { numbersIn } from '@crucibleforge/cases';
import { contradictsKnownFact } from './knowledge';

/** The simulated judge's decision: does a candidate answer state every key fact of the reference? */
export interface FactDecision {
  correct: boolean;
  note: string;
}

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };
const DENOMINATORS: Record<string, number> = {
  half: 2, halves: 2, third: 3, thirds: 3, quarter: 4, quarters: 4, fourth: 4, fourths: 4, fifth: 5, fifths: 5, tenth: 10, tenths: 10,
};

const STOPWORDS = new Set(
  ('about above after again also among because been before being between both but can could does doing down during each from ' +
    'further have having here into its itself just more most much must never only other over same should some such than that ' +
    'their them then there these they this those through under until very was were what when where which while who whom why ' +
    'will with would your the and for are not has had how all any our out one may per via').split(' '),
);

function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y) [x, y] = [y, x % y];
  return x || 1;
}

/** Canonical `num/den` key of a number. */
function key(num: bigint | number, den: bigint | number = 1): string {
  const n = Number(num);
  const d = Number(den);
  const g = gcd(n, d);
  return `${n / g}/${d / g}`;
}

/** Numbers written with digits (not glued to letters: `v2`, `0123abc` are not numbers; `3rd` is 3). */
function digitNumbers(text: string): string[] {
  return numbersIn(text)
    .filter((n) => !/^[\p{L}_]/u.test(text.slice(n.index + n.text.length).replace(/^(?:st|nd|rd|th)\b/, '')))
    .map((n) => key(n.value.num, n.value.den));
}

/** Numbers written in words: `one hundred`, `twenty-five`, `three quarters`, `a half`. */
function wordNumbers(text: string): string[] {
  const words = text.toLowerCase().split(/[^a-z]+/).filter(Boolean);
  const out: string[] = [];
  let total = 0;
  let current = 0;
  let inNumber = false;
  const flush = (next: string | undefined) => {
    if (!inNumber) return;
    const value = total + current;
    const den = next === undefined ? undefined : DENOMINATORS[next];
    out.push(den ? key(value, den) : key(value));
    total = 0;
    current = 0;
    inNumber = false;
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    // "one" on its own is mostly a determiner ("one request"); it counts in "one hundred", "one half", "twenty-one"
    const loneOne = w === 'one' && !inNumber && !(next !== undefined && (next in SCALES || next === 'hundred' || next in DENOMINATORS));
    if (w in UNITS && !loneOne) {
      current += UNITS[w]!;
      inNumber = true;
    } else if (w in TENS) {
      current += TENS[w]!;
      inNumber = true;
    } else if (w === 'hundred' && inNumber) {
      current *= 100;
    } else if (w in SCALES && inNumber) {
      total += current * SCALES[w]!;
      current = 0;
    } else if (w === 'and' && inNumber && next !== undefined && (next in UNITS || next in TENS)) {
      continue;
    } else {
      flush(w);
      if ((w === 'half' || w === 'halves') && (words[i - 1] === 'a' || words[i - 1] === 'one')) out.push(key(1, 2));
    }
  }
  flush(undefined);
  return out;
}

function numbersOf(text: string): Set<string> {
  return new Set([...digitNumbers(text), ...wordNumbers(text)]);
}

/** Unit symbols spelled out, so `100 °C` and `one hundred degrees Celsius` share their words. */
function spellUnits(text: string): string {
  return text.replace(/°\s*C\b/g, ' degrees celsius').replace(/°\s*F\b/g, ' degrees fahrenheit').replace(/%/g, ' percent');
}

/** The words that carry a fact: long words that are not stopwords or number words, and short capitalised ones (Au, UK). */
function keyWords(text: string): string[] {
  const words = spellUnits(text).match(/[\p{L}][\p{L}'-]*/gu) ?? [];
  const out = words.filter((w) => {
    const lower = w.toLowerCase();
    if (STOPWORDS.has(lower) || lower in UNITS || lower in TENS || lower in SCALES || lower in DENOMINATORS || lower === 'hundred') return false;
    return lower.length >= 4 || (lower.length >= 2 && /\p{Lu}/u.test(w));
  });
  return [...new Set(out.map((w) => w.toLowerCase()))];
}

function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return prefix >= Math.max(4, Math.min(a.length, b.length) - 2);
}

/**
 * null when the answer states the fact as the reference does, else what is missing. Facts are often
 * paraphrases, so a fact is read through the reference: the fact's numbers that the reference states
 * must all be in the answer, and at least half of the fact's key words that the reference uses.
 */
export function missingFromFact(fact: string, answer: string, reference: string): string | null {
  const have = numbersOf(spellUnits(answer));
  const inReference = numbersOf(spellUnits(reference));
  const missingNumber = [...numbersOf(spellUnits(fact))].find((n) => inReference.has(n) && !have.has(n));
  if (missingNumber !== undefined) return `the number ${missingNumber.replace(/\/1$/, '')}`;
  const referenceWords = keyWords(reference);
  const wanted = keyWords(fact).filter((w) => referenceWords.some((r) => sameWord(w, r)));
  if (wanted.length === 0) return null;
  const answerWords = keyWords(answer);
  const found = wanted.filter((w) => answerWords.some((a) => sameWord(w, a)));
  return found.length * 2 >= wanted.length ? null : `"${wanted.filter((w) => !found.includes(w)).slice(0, 3).join('", "')}"`;
}

const HEDGES = [/\beither\b[^.?!\n]*\bor\b/i, /\bsources (?:differ|disagree)\b/i, /\b(?:I am|I'm) not (?:sure|certain)\b/i, /\bhard to say\b/i];

const clip = (text: string, n: number) => (text.length <= n ? text : `${text.slice(0, n - 1)}…`);

/**
 * Compares a candidate answer with the reference the way the judge protocol asks: an empty answer,
 * hedging between alternatives, any key fact missing (see missingFromFact), or a false extra claim about a
 * fact the simulated judge knows (see knowledge.ts) makes it incorrect.
 * Without listed facts the reference itself is the one fact. The reference answer always passes.
 */
export function compareWithReference(input: { reference: string; facts: readonly string[]; answer: string }): FactDecision {
  const answer = input.answer.trim();
  if (answer === '') return { correct: false, note: 'empty answer' };
  const hedge = HEDGES.find((h) => h.test(answer) && !h.test(input.reference));
  if (hedge) return { correct: false, note: 'hedges between alternative answers' };
  const facts = input.facts.length > 0 ? input.facts : [input.reference];
  for (const fact of facts) {
    const missing = missingFromFact(fact, answer, input.reference);
    if (missing) return { correct: false, note: clip(`missing key fact "${clip(fact.trim(), 90)}" (no ${missing})`, 200) };
  }
  const falseClaim = contradictsKnownFact(answer);
  if (falseClaim && !contradictsKnownFact(input.reference)) return { correct: false, note: `asserts a false extra claim (${falseClaim})` };
  return { correct: true, note: input.facts.length > 0 ? `states all ${facts.length} key facts of the reference` : 'agrees with the reference answer' };
}
