import { formatRational } from '../text/numbers';
import { tokenize, tokenMatches } from './tokens';

/**
 * Figures (numbers and clock times; with `units`, only numbers with one of those units) in the reply that the
 * prompt never states; without `units`, clock times and ids (codes) count too. `steps` are texts the model
 * sent (tool-call arguments): a given figure minus a sent amount counts as given (51 on hand, 28 sent: 23
 * left). List numbers (`1.`) and counting words ("two trains") are not figures.
 */
export function inventedFigures(reply: string, prompt: string, units: string[] | undefined, allow: (string | number)[] = [], steps: string[] = []): string[] {
  const given = tokenize(prompt);
  const known = given.filter((t) => t.t === 'num');
  const allowed = allow.flatMap((a) => tokenize(String(a)).filter((t) => t.t === 'num' || t.t === 'time' || t.t === 'code'));
  const unitTokens = (units ?? []).map((u) => tokenize(`1 ${u}`).slice(1));
  // a figure one step from a given one and an amount the model itself sent ("51 on hand, 28 sent: 23 left")
  const sent = steps.flatMap((x) => tokenize(x).filter((t) => t.t === 'num'));
  const derived: typeof known = [];
  for (const a of known) {
    for (const b of sent) {
      if (a.t !== 'num' || b.t !== 'num') continue;
      derived.push({ t: 'num', v: { num: a.v.num * b.v.den - b.v.num * a.v.den, den: a.v.den * b.v.den } });
    }
  }
  known.push(...derived);
  const tokens = tokenize(reply.replace(/^[ \t]*\d{1,2}[.)][ \t]/gm, ' '));
  const out: string[] = [];
  tokens.forEach((t, i) => {
    // clock times count too when every figure counts: "closes at 13:00" when only 17:30 was given
    if (t.t === 'time' && units === undefined) {
      if (![...given, ...allowed].some((k) => tokenMatches(k, t))) out.push(t.v);
      return;
    }
    // an id the reply quotes (a booking reference, a transfer id) must be one it was given
    if (t.t === 'code' && units === undefined) {
      if (![...given, ...allowed].some((k) => tokenMatches(k, t))) out.push(t.v.toUpperCase());
      return;
    }
    // counting words ("two trains") are not stated figures
    if (t.t !== 'num' || t.words) return;
    if (units !== undefined && !unitTokens.some((u) => u.length > 0 && u.every((ut, k) => tokens[i + 1 + k] !== undefined && tokenMatches(ut, tokens[i + 1 + k]!)))) return;
    if ([...known, ...allowed].some((k) => tokenMatches(k, t))) return;
    out.push(formatRational(t.v));
  });
  return out;
}
