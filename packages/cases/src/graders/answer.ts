import type { FinishReason, GradeOutcome } from '@crucibleforge/core';
import type { GraderOf } from '../schema/graders';
import { stripThinking } from '@crucibleforge/core';
import { containsNeedle, escapeRegExp, foldText, labelledLines, lastLabelled, cleanAnswerValue } from '../text/normalize';
import { formatRational, numbersIn, numbersMatch, parseRational, type Rational } from '../text/numbers';

const fail = (reason: string, details?: Record<string, unknown>): GradeOutcome => ({ status: 'fail', reason, ...(details ? { details } : {}) });
const pass = (reason: string, details?: Record<string, unknown>): GradeOutcome => ({ status: 'pass', reason, score: 1, ...(details ? { details } : {}) });

function noLabel(label: string, finish?: FinishReason): GradeOutcome {
  return fail(finish === 'length' ? `TRUNCATED: cut off before an "${label}:" line` : `no "${label}:" line`);
}

/**
 * The number a labelled answer value states: the part after the last `=` (`x = 5`, `2^10 = 1024`), with
 * parenthesised remarks (`978 (mod 1000)`) and units ignored; `ambiguous` when it offers alternatives.
 */
export function answerNumber(value: string): { value: Rational | null; ambiguous: boolean } {
  let v = cleanAnswerValue(value).replace(/\([^)]*\)/g, ' ');
  if (v.includes('=')) v = v.slice(v.lastIndexOf('=') + 1);
  const nums = numbersIn(v);
  if (nums.length === 0) return { value: null, ambiguous: false };
  const first = nums[0]!;
  const alternatives = nums.slice(1).filter((n) => !numbersMatch(n.value, first.value) && /\b(or|and)\b/i.test(v.slice(first.index, n.index)));
  return { value: first.value, ambiguous: alternatives.length > 0 };
}

/**
 * number: the value right after `Answer:` (integers, decimals, fractions, thousands separators), compared
 * exactly (or within tolerance). Two different labelled answers fail. Fallbacks when there is no label:
 * the last `\boxed{…}`, else a reply that is nothing but one number.
 */
export function gradeNumber(grader: GraderOf<'number'>, expected: string | number, content: string, finish?: FinishReason): GradeOutcome {
  const label = grader.label ?? 'Answer';
  const want = parseRational(expected);
  if (!want) return { status: 'error', reason: `reference answer "${expected}" is not a number` };
  const text = stripThinking(content);
  if (!text) return fail('empty reply');
  let values = labelledLines(text, label);
  let source = 'label';
  if (values.length === 0) {
    const boxed = [...text.matchAll(/\\boxed\{([^{}]*)\}/g)].map((m) => m[1]!);
    if (boxed.length > 0) {
      values = [boxed[boxed.length - 1]!];
      source = 'boxed';
    } else if (parseRational(cleanAnswerValue(text))) {
      values = [cleanAnswerValue(text)];
      source = 'bare';
    } else {
      return noLabel(label, finish);
    }
  }
  const parsed = values.map(answerNumber);
  const firstAmbiguous = parsed.find((p) => p.ambiguous);
  if (firstAmbiguous) return fail(`more than one value in the answer: "${values[parsed.indexOf(firstAmbiguous)]}"`);
  const numbers = parsed.map((p) => p.value).filter((v): v is Rational => v !== null);
  if (numbers.length === 0) return fail(`no number after "${label}:" ("${values[values.length - 1]!.slice(0, 40)}")`);
  const distinct = numbers.filter((n, i) => numbers.findIndex((m) => numbersMatch(m, n)) === i);
  if (distinct.length > 1) return fail(`two different final answers: ${formatRational(distinct[0]!)} and ${formatRational(distinct[1]!)}`);
  const got = distinct[0]!;
  const details = { got: formatRational(got), expected: formatRational(want), source };
  return numbersMatch(got, want, grader.tolerance ?? 0)
    ? pass(`answer ${formatRational(got)}`, details)
    : fail(`expected ${formatRational(want)}, got ${formatRational(got)}`, details);
}

/** In a comma list, the last item joined with "and" (or ", and") counts as a comma: "R, S and T" = "R, S, T". */
function finalAndAsComma(text: string): string {
  return text.includes(',') ? text.replace(/,?\s+and\s+(?=[^,]*$)/iu, ', ') : text;
}

function normalizeExact(text: string, caseSensitive: boolean): string {
  const base = finalAndAsComma(text.normalize('NFKC')).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return caseSensitive ? base : base.toLowerCase();
}

/** The labelled value(s); a one-line reply without a label is its own value. */
function answerValues(text: string, label: string): string[] {
  const values = labelledLines(text, label);
  if (values.length > 0) return values.map(cleanAnswerValue);
  return text.includes('\n') ? [] : [cleanAnswerValue(text)];
}

/** exact: the labelled value equals the reference (or an alternative) after normalising punctuation and case. */
export function gradeExact(grader: GraderOf<'exact'>, expected: string, content: string, finish?: FinishReason): GradeOutcome {
  const label = grader.label ?? 'Answer';
  const text = stripThinking(content);
  if (!text) return fail('empty reply');
  const cs = grader.case_sensitive ?? false;
  const values = answerValues(text, label);
  if (values.length === 0) return noLabel(label, finish);
  const distinct = [...new Set(values.map((v) => normalizeExact(v, cs)))];
  if (distinct.length > 1) return fail(`two different final answers: "${distinct[0]}" and "${distinct[1]}"`);
  const accepted = [expected, ...(grader.alternatives ?? [])].map((a) => normalizeExact(a, cs));
  const got = distinct[0]!;
  return accepted.includes(got) ? pass(`answer "${got}"`) : fail(`expected "${accepted[0]}", got "${got.slice(0, 60)}"`);
}

/** choice: exactly one of the options named after the label. */
export function gradeChoice(grader: GraderOf<'choice'>, expected: string, content: string, finish?: FinishReason): GradeOutcome {
  const label = grader.label ?? 'Answer';
  const text = stripThinking(content);
  if (!text) return fail('empty reply');
  const value = lastLabelled(text, label) ?? (text.includes('\n') ? null : text);
  if (value === null) return noLabel(label, finish);
  const named = grader.options.filter((o) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(o)}(?![\\p{L}\\p{N}])`, o.length === 1 ? 'u' : 'iu').test(value));
  if (named.length === 0) return fail(`no option (${grader.options.join(', ')}) after "${label}:"`);
  if (named.length > 1) return fail(`several options given: ${named.join(', ')}`);
  return named[0]!.toLowerCase() === expected.toLowerCase() ? pass(`chose ${named[0]}`) : fail(`expected ${expected}, chose ${named[0]}`);
}

/**
 * assignments: every key gets its value. The answer (after the label, to the end; else the whole reply)
 * is cut into clauses at line breaks, `;`, `,` and " and "; a key's value is the one candidate value named
 * in the last clause that names that key and no other key. Scored per element.
 */
export function gradeAssignments(grader: GraderOf<'assignments'>, expected: Record<string, string>, content: string): GradeOutcome {
  const text = stripThinking(content);
  if (!text) return fail('empty reply');
  const label = grader.label ?? 'Answer';
  const at = new RegExp(`(?:^|\\n)[*_#>\\s]*(?:final\\s+)?${escapeRegExp(label)}[*_\\s]*[:=]`, 'gi');
  const starts = [...text.matchAll(at)];
  const scope = starts.length > 0 ? text.slice(starts[starts.length - 1]!.index) : text;
  const clauses = scope.split(/\n|;|,|\band\b/i).map((c) => c.trim()).filter(Boolean);
  const keys = Object.keys(expected);
  const values = grader.values ?? [...new Set(Object.values(expected))];
  const elements = keys.map((key) => {
    const own = clauses.filter((c) => containsNeedle(c, key) && keys.filter((k) => k !== key && containsNeedle(c, k)).length === 0);
    let got: string | null = null;
    for (const clause of own) {
      const named = values.filter((v) => containsNeedle(clause, v));
      if (named.length === 1) got = named[0]!;
    }
    return { key, expected: expected[key]!, got, pass: got !== null && foldText(got) === foldText(expected[key]!) };
  });
  const right = elements.filter((e) => e.pass).length;
  const score = keys.length === 0 ? 0 : right / keys.length;
  const wrong = elements.find((e) => !e.pass);
  if (!wrong) return pass(`all ${keys.length} assignments right`, { elements });
  return {
    status: 'fail',
    reason: `${right}/${keys.length} right; ${wrong.key}: expected ${wrong.expected}, got ${wrong.got ?? 'nothing'}`,
    score,
    details: { elements },
  };
}
