import type { FinishReason, GradeOutcome } from '@crucibleforge/core';
import { extractChoice } from '../answers/choice';
import { finalAnswer } from '../answers/final';
import { answerBlock, extractList, itemsEqual, referenceItems } from '../answers/list';
import { mappingElements } from '../answers/mapping';
import { extractNumber } from '../answers/number';
import { matchText, type AnswerContext, type Normaliser } from '../answers/text';
import type { FinalAnswerSpec, GraderOf } from '../schema/graders';
import { stripThinking } from '@crucibleforge/core';
import { formatRational, numbersMatch, parseRational } from '../text/numbers';

const fail = (reason: string, details?: Record<string, unknown>): GradeOutcome => ({ status: 'fail', reason, ...(details ? { details } : {}) });
const pass = (reason: string, details?: Record<string, unknown>): GradeOutcome => ({ status: 'pass', reason, score: 1, ...(details ? { details } : {}) });

function noLabel(label: string, finish?: FinishReason): GradeOutcome {
  return fail(finish === 'length' ? `TRUNCATED: cut off before an "${label}:" line` : `no "${label}:" line`);
}

/**
 * number: the last explicit final answer (`Answer:`, `\boxed{}`, …; see finalAnswer) read as a number —
 * thousands separators (`,` `_` thin and plain spaces), fractions, decimals, units and remarks allowed —
 * compared exactly (or within the declared tolerance). Two values in the final answer itself fail.
 */
export function gradeNumber(grader: GraderOf<'number'>, expected: string | number, content: string, finish?: FinishReason): GradeOutcome {
  const label = grader.label ?? 'Answer';
  const want = parseRational(expected);
  if (!want) return { status: 'error', reason: `reference answer "${expected}" is not a number` };
  const text = stripThinking(content);
  if (!text) return fail('empty reply');
  const final = finalAnswer(text, label);
  // a reply without any answer marker counts only when it is just the number ("978", "978 routes")
  if (!final || (final.source === 'bare' && !/^[\s*$_`(-]*[−-]?\d/.test(final.value))) return noLabel(label, finish);
  const got = extractNumber(final.value);
  if (!got.ok) return fail(got.reason.startsWith('no number') ? `no number after "${label}:" ("${final.value.slice(0, 40)}")` : got.reason);
  const details = { got: formatRational(got.value), expected: formatRational(want), source: final.source };
  return numbersMatch(got.value, want, grader.tolerance ?? 0)
    ? pass(`answer ${formatRational(got.value)}`, details)
    : fail(`expected ${formatRational(want)}, got ${formatRational(got.value)}`, details);
}

function normaliserOf(grader: GraderOf<'exact'>): Normaliser {
  return grader.normaliser ?? (grader.case_sensitive ? 'exact' : 'fold');
}

/**
 * exact: the final answer as a short text (its normaliser, harmless prefixes that repeat the question's
 * words allowed), or as a list (order matters) or set (it does not) of items. Alternatives are other
 * accepted forms; "or" between alternatives is a hedge.
 */
export function gradeExact(grader: GraderOf<'exact'>, expected: string, content: string, finish?: FinishReason, ctx: AnswerContext = {}): GradeOutcome {
  const label = grader.label ?? 'Answer';
  const text = stripThinking(content);
  if (!text) return fail('empty reply');
  const final = finalAnswer(text, label);
  if (!final) return noLabel(label, finish);
  const accepted = [expected, ...(grader.alternatives ?? [])];
  const normaliser = normaliserOf(grader);
  const kind = grader.kind ?? 'text';
  if (kind === 'text') {
    const r = matchText(final.value, accepted, normaliser, ctx);
    if (r.pass) return pass(`answer "${r.got}"`);
    return fail(r.reason ?? `expected "${accepted[0]}", got "${r.got.slice(0, 60)}"`);
  }
  const spec = { normaliser, ...(grader.or ? { or: true } : {}) };
  const wanted = accepted.map((a) => referenceItems(a, spec));
  const got = extractList(answerBlock(final), spec, wanted.flat(), ctx);
  if (!got.ok) return fail(got.reason);
  const shown = got.items.join(', ');
  return wanted.some((w) => itemsEqual(got.items, w, kind === 'list'))
    ? pass(`answer "${shown}"`)
    : fail(`expected "${wanted[0]!.join(', ')}"${kind === 'set' ? ' (any order)' : ''}, got "${shown.slice(0, 60)}"`);
}

/** choice: exactly one option, named by its letter or by its text as the question lists it. */
export function gradeChoice(grader: GraderOf<'choice'>, expected: string, content: string, finish?: FinishReason, ctx: AnswerContext = {}): GradeOutcome {
  const label = grader.label ?? 'Answer';
  const text = stripThinking(content);
  if (!text) return fail('empty reply');
  const final = finalAnswer(text, label);
  if (!final) return noLabel(label, finish);
  const r = extractChoice(final.value, grader.options, ctx.question ?? '');
  if (!r.ok) return fail(r.reason);
  return r.option.toLowerCase() === expected.toLowerCase() ? pass(`chose ${r.option}`) : fail(`expected ${expected}, chose ${r.option}`);
}

/**
 * assignments: every key gets its value, scored per element. The answer (after the last label, to the
 * end; else the whole reply) is read as a key → value map: markdown tables by rows or columns, other
 * lines cut into clauses naming one key and one candidate value; a key's last assignment wins.
 */
export function gradeAssignments(grader: GraderOf<'assignments'>, expected: Record<string, string>, content: string): GradeOutcome {
  const text = stripThinking(content);
  if (!text) return fail('empty reply');
  const final = finalAnswer(text, grader.label ?? 'Answer');
  const scope = final?.source === 'label' ? final.rest : text;
  const keys = Object.keys(expected);
  const values = grader.values ?? [...new Set(Object.values(expected))];
  const elements = mappingElements(scope, expected, values);
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

/** A typed final answer (tool and agent cases): graded as the number or exact grader would grade it. */
export function gradeFinalAnswer(spec: FinalAnswerSpec, content: string, ctx: AnswerContext = {}): GradeOutcome {
  const label = spec.label === undefined ? {} : { label: spec.label };
  if (spec.kind === 'number') return gradeNumber({ type: 'number', ...label, ...(spec.tolerance === undefined ? {} : { tolerance: spec.tolerance }) }, spec.expected, content);
  return gradeExact(
    {
      type: 'exact',
      ...label,
      kind: spec.kind,
      ...(spec.normaliser ? { normaliser: spec.normaliser } : {}),
      ...(spec.or ? { or: true } : {}),
      ...(spec.alternatives ? { alternatives: spec.alternatives } : {}),
    },
    String(spec.expected),
    content,
    undefined,
    ctx,
  );
}
