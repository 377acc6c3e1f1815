import type { ArgMatcher, CallMatcher } from '../schema/common';
import { getPath, jsonEqual } from '../text/json';
import { countProblem } from '../checks/library';
import { sentences, words } from '../checks/units';
import { containsNeedle } from '../text/normalize';

export interface ParsedCall {
  id: string;
  name: string;
  /** The parsed arguments, or null when the model's argument text was not a JSON object. */
  args: Record<string, unknown> | null;
  raw: string;
}

export function parseArguments(raw: string): Record<string, unknown> | null {
  if (raw.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(raw);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A date in an unambiguous format as YYYY-MM-DD: ISO (with or without a time), YYYY/MM/DD, "March 6, 2026",
 * "6 March 2026", "Mar 6 2026". Day-month orders that could be read two ways (03/06/2026) are refused.
 */
export function normalizeDate(value: string): string | null {
  const v = value.trim().toLowerCase();
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:$|[t\s])/.exec(v);
  let y: number, mo: number, d: number;
  if (m) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else if ((m = /^([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/.exec(v))) {
    [y, mo, d] = [Number(m[3]), MONTHS.indexOf(m[1]!.slice(0, 3)) + 1, Number(m[2])];
  } else if ((m = /^(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]{3,9})\.?,?\s+(\d{4})$/.exec(v))) {
    [y, mo, d] = [Number(m[3]), MONTHS.indexOf(m[2]!.slice(0, 3)) + 1, Number(m[1])];
  } else return null;
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1) return null;
  return `${y}-${pad(mo)}-${pad(d)}`;
}

/** Milliseconds since the epoch of an ISO date-time; a value without a zone is read as UTC. */
export function parseInstant(value: string): number | null {
  const v = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(v)) return null;
  const withZone = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}Z`;
  const ms = Date.parse(withZone.replace(' ', 'T'));
  return Number.isNaN(ms) ? null : ms;
}

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 50 ? `${s.slice(0, 47)}...` : s;
};

function equalsLoose(got: unknown, want: unknown, caseSensitive: boolean): boolean {
  if (typeof want === 'string' && typeof got === 'string') {
    return caseSensitive ? got.trim() === want.trim() : got.trim().toLowerCase() === want.trim().toLowerCase();
  }
  return jsonEqual(got, want);
}

const GREETING = /^\s*(?:hi|hello|hey|dear|good (?:morning|afternoon|evening))\b[^\n.!?]{0,40}[,!:]?\s*$/i;
const SIGN_OFF = /^\s*(?:best(?: regards| wishes)?|kind regards|regards|many thanks|thanks|thank you|cheers|sincerely|yours(?: sincerely| faithfully)?|all the best)\b[^\n.!?]{0,20}[,.!]?\s*$/i;

/** A message without its greeting line and its sign-off (with the name under it): what its sentences are counted over. */
export function messageBody(text: string): string {
  const lines = text.split('\n');
  let start = lines.findIndex((l) => l.trim() !== '');
  if (start >= 0 && GREETING.test(lines[start]!)) start++;
  let end = lines.length;
  const signOff = lines.findIndex((l, i) => i >= start && SIGN_OFF.test(l) && lines.slice(i + 1).filter((x) => x.trim() !== '').length <= 2);
  if (signOff >= 0) end = signOff;
  return lines.slice(Math.max(0, start), end).join('\n');
}

/** null when the argument satisfies the matcher, else a short reason (the path is added by the caller). */
export function argProblem(matcher: ArgMatcher, present: boolean, value: unknown): string | null {
  if (matcher !== null && typeof matcher === 'object' && 'absent' in matcher) return present ? `must be absent, got ${show(value)}` : null;
  if (!present) return 'missing';
  if (matcher === null || typeof matcher !== 'object') {
    if (typeof matcher === 'number') return argProblem({ number: matcher }, present, value);
    return equalsLoose(value, matcher, false) ? null : `expected ${show(matcher)}, got ${show(value)}`;
  }
  if ('present' in matcher) return null;
  if ('equals' in matcher) return equalsLoose(value, matcher.equals, matcher.case_sensitive ?? false) ? null : `expected ${show(matcher.equals)}, got ${show(value)}`;
  if ('number' in matcher) {
    if (typeof value !== 'number') return `expected the number ${matcher.number}, got ${show(value)}`;
    return Math.abs(value - matcher.number) <= (matcher.tolerance ?? 0) ? null : `expected ${matcher.number}, got ${value}`;
  }
  if ('enum' in matcher) {
    return matcher.enum.some((e) => equalsLoose(value, e, matcher.case_sensitive ?? false)) ? null : `expected one of ${show(matcher.enum)}, got ${show(value)}`;
  }
  if ('regex' in matcher) {
    if (typeof value !== 'string') return `expected a string, got ${show(value)}`;
    return new RegExp(matcher.regex, matcher.flags ?? '').test(value) ? null : `${show(value)} does not match /${matcher.regex}/`;
  }
  if ('contains' in matcher) {
    if (typeof value !== 'string') return `expected a string, got ${show(value)}`;
    return containsNeedle(value, matcher.contains) ? null : `${show(value)} lacks "${matcher.contains}"`;
  }
  if ('date' in matcher) {
    const d = typeof value === 'string' ? normalizeDate(value) : null;
    return d === matcher.date ? null : `expected the date ${matcher.date}, got ${show(value)}`;
  }
  if ('datetime' in matcher) {
    const want = parseInstant(matcher.datetime);
    const got = typeof value === 'string' ? parseInstant(value) : null;
    return want !== null && got === want ? null : `expected the instant ${matcher.datetime}, got ${show(value)}`;
  }
  if ('set' in matcher) {
    if (!Array.isArray(value)) return `expected an array, got ${show(value)}`;
    const rest = [...value];
    for (const item of matcher.set) {
      const i = rest.findIndex((r) => equalsLoose(r, item, false));
      if (i < 0) return `missing ${show(item)}`;
      rest.splice(i, 1);
    }
    return rest.length === 0 ? null : `unexpected ${show(rest[0])}`;
  }
  if ('length' in matcher) {
    const len = Array.isArray(value) || typeof value === 'string' ? value.length : null;
    return len === matcher.length ? null : `expected length ${matcher.length}, got ${len ?? show(value)}`;
  }
  if ('sentences' in matcher || 'words' in matcher || 'lines' in matcher) {
    if (typeof value !== 'string') return `expected a text, got ${show(value)}`;
    const [n, unit, count] =
      'sentences' in matcher
        ? [sentences(messageBody(value)).length, 'sentence', matcher.sentences]
        : 'words' in matcher
          ? [words(value).length, 'word', matcher.words]
          : [value.split('\n').filter((l) => l.trim() !== '').length, 'line', matcher.lines];
    const problem = countProblem(n, count);
    return problem ? `${n} ${unit}${n === 1 ? '' : 's'}, ${problem}` : null;
  }
  if ('all' in matcher) {
    for (const m of matcher.all) {
      const p = argProblem(m, present, value);
      if (p) return p;
    }
    return null;
  }
  if ('some' in matcher) {
    if (!Array.isArray(value)) return `expected an array, got ${show(value)}`;
    if (value.length === 0) return 'expected an item that matches, got an empty array';
    const problems = value.map((item) => argProblem(matcher.some, true, item));
    if (problems.some((p) => p === null)) return null;
    return `no item matches (item [0]: ${problems[0]})`;
  }
  if ('every' in matcher) {
    if (!Array.isArray(value)) return `expected an array, got ${show(value)}`;
    if (value.length === 0) return 'expected items, got an empty array';
    for (const [i, item] of value.entries()) {
      const p = argProblem(matcher.every, true, item);
      if (p) return `item [${i}]: ${p}`;
    }
    return null;
  }
  if ('fields' in matcher) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return `expected an object, got ${show(value)}`;
    return fieldsProblem(matcher.fields, value as Record<string, unknown>);
  }
  return 'unknown matcher';
}

/** Every `path → matcher` holds on the object; else `path: problem` for the first that does not. */
export function fieldsProblem(fields: Record<string, ArgMatcher>, obj: Record<string, unknown>): string | null {
  for (const [path, m] of Object.entries(fields)) {
    const got = getPath(obj, path);
    const problem = argProblem(m, got.found, got.value);
    if (problem) return `${path}: ${problem}`;
  }
  return null;
}

/** Checks the arguments of a call against a matcher's `args` (paths) and `extra_args`. */
export function argsProblem(matcher: Pick<CallMatcher, 'args' | 'extra_args'>, args: Record<string, unknown> | null): string | null {
  if (args === null) return 'arguments are not a JSON object';
  const problem = fieldsProblem(matcher.args ?? {}, args);
  if (problem) return problem;
  if (matcher.extra_args === 'forbid') {
    const named = new Set(Object.keys(matcher.args ?? {}).map((p) => p.split(/[.[]/)[0]!));
    const extra = Object.keys(args).find((k) => !named.has(k));
    if (extra) return `unexpected argument "${extra}"`;
  }
  return null;
}

/** null when the call matches, else the reason. */
export function callProblem(matcher: CallMatcher, call: ParsedCall): string | null {
  if (call.name !== matcher.name) return `called ${call.name}, expected ${matcher.name}`;
  const p = argsProblem(matcher, call.args);
  return p ? `${call.name}: ${p}` : null;
}

/** `search_flights(origin="LHR", …)` for reasons. */
export function describeCall(call: ParsedCall): string {
  const args = call.args ? Object.entries(call.args).map(([k, v]) => `${k}=${show(v)}`).join(', ') : call.raw.slice(0, 40);
  const text = `${call.name}(${args})`;
  return text.length > 90 ? `${text.slice(0, 87)}...` : text;
}
