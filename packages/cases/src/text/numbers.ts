/** Exact rational numbers (BigInt) so fractions, big integers and decimals compare without rounding. */
export interface Rational {
  num: bigint;
  den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function make(num: bigint, den: bigint): Rational | null {
  if (den === 0n) return null;
  if (den < 0n) [num, den] = [-num, -den];
  const g = gcd(num, den) || 1n;
  return { num: num / g, den: den / g };
}

/**
 * A number token as models write them: `-12`, `1,234,567`, `1_234_567`, `1 234 567` with thin spaces,
 * `3.25`, `-7/12`, `\frac{7}{12}`, `1e6`. Thousands separators are accepted only in groups of three.
 * Plain-space groups (`141 566 219`) are read only inside a final answer (answers/number.ts), where a
 * space between digit groups cannot separate two numbers of running text.
 */
export const NUMBER_TOKEN =
  /(?:\\[dt]?frac\{\s*-?\d+\s*\}\{\s*-?\d+\s*\})|(?:[-−]?(?:\d{1,3}(?:(?:,|\u2009|\u202f|_)\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?(?:\s*\/\s*\d+)?)/g;

/** Parses one number token (see NUMBER_TOKEN) or a plain JS number; null when it is not a number. */
export function parseRational(input: string | number): Rational | null {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return null;
    return parseRational(String(input).includes('e') ? input.toFixed(20).replace(/0+$/, '') : String(input));
  }
  let text = input.trim().replace(/−/g, '-');
  const frac = /^\\[dt]?frac\{\s*(-?\d+)\s*\}\{\s*(-?\d+)\s*\}$/.exec(text);
  if (frac) return make(BigInt(frac[1]!), BigInt(frac[2]!));
  text = text.replace(/(\d)[,\u2009\u202f_](?=\d{3}(?!\d))/g, '$1');
  const slash = /^(-?\d+(?:\.\d+)?)\s*\/\s*(\d+)$/.exec(text);
  if (slash) {
    const top = parseRational(slash[1]!);
    if (!top) return null;
    return make(top.num, top.den * BigInt(slash[2]!));
  }
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(text);
  if (!m) return null;
  const sign = m[1] === '-' ? -1n : 1n;
  const decimals = m[3] ?? '';
  let num = BigInt(m[2]! + decimals) * sign;
  let den = 10n ** BigInt(decimals.length);
  const exp = m[4] ? Number(m[4]) : 0;
  if (Math.abs(exp) > 400) return null;
  if (exp > 0) num *= 10n ** BigInt(exp);
  if (exp < 0) den *= 10n ** BigInt(-exp);
  return make(num, den);
}

export function rationalEquals(a: Rational, b: Rational): boolean {
  return a.num === b.num && a.den === b.den;
}

export function rationalToNumber(r: Rational): number {
  return Number(r.num) / Number(r.den);
}

/** Canonical text: `12`, `-7/12`. */
export function formatRational(r: Rational): string {
  return r.den === 1n ? r.num.toString() : `${r.num}/${r.den}`;
}

/** Equal exactly, or within an absolute tolerance when one is given (> 0). */
export function numbersMatch(got: Rational, expected: Rational, tolerance = 0): boolean {
  if (tolerance <= 0) return rationalEquals(got, expected);
  return Math.abs(rationalToNumber(got) - rationalToNumber(expected)) <= tolerance;
}

/** Every number token in a text, in order, with its parsed value. */
export function numbersIn(text: string): { text: string; value: Rational; index: number }[] {
  const out: { text: string; value: Rational; index: number }[] = [];
  for (const m of text.matchAll(NUMBER_TOKEN)) {
    let token = m[0];
    let index = m.index;
    const before = index > 0 ? text[index - 1]! : '';
    // a digit glued to letters (v2, x86, A4) is part of a word, not a number
    if (/[\p{L}_]/u.test(before)) continue;
    // "10-12" is a range: the dash is not a minus sign
    if (/^[-−]/.test(token) && /[\p{L}\p{N}]/u.test(before)) {
      token = token.slice(1);
      index += 1;
    }
    const value = parseRational(token);
    if (value) out.push({ text: token, value, index });
  }
  return out;
}
