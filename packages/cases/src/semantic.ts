import type { CaseDef } from './schema/case';
import type { Check } from './schema/checks';
import type { ArgMatcher, CallMatcher } from './schema/common';
import { calibrationProblems } from './difficulty';
import { placeholders } from './template';

export interface PathProblem {
  path: (string | number)[];
  message: string;
}

const RESERVED = new Set(['seed', 'answer', 'haystack']);

/** A group that contains a quantifier and is itself quantified without bound: `(a+)+`, `(\\w*\\s?)*`, `(x+){2,}` — exponential backtracking. Bounded `{0,5}` is allowed. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*(?:[+*]|\{\d+,\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,\})/;

function regexProblem(pattern: string, flags: string | undefined): string | null {
  try {
    new RegExp(pattern, flags ?? '');
  } catch (error) {
    return `invalid regex: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (NESTED_QUANTIFIER.test(pattern)) return 'nested quantifier (a quantified group containing + or *): catastrophic backtracking risk on model output';
  return null;
}

function checkRegexes(checks: Check[], base: (string | number)[], out: PathProblem[]): void {
  checks.forEach((c, i) => {
    if ('pattern' in c) {
      const p = regexProblem(c.pattern, c.flags);
      if (p) out.push({ path: [...base, i, 'pattern'], message: p });
    }
    if (c.check === 'bullet_count' || c.check === 'word_count' || c.check === 'sentence_count') {
      if (c.exactly === undefined && c.min === undefined && c.max === undefined) out.push({ path: [...base, i], message: 'give exactly, min or max' });
    }
  });
}

function matcherRegex(m: ArgMatcher, at: (string | number)[], out: PathProblem[]): void {
  if (m === null || typeof m !== 'object') return;
  if ('regex' in m) {
    const p = regexProblem(m.regex, m.flags);
    if (p) out.push({ path: [...at, 'regex'], message: p });
  } else if ('some' in m) matcherRegex(m.some, [...at, 'some'], out);
  else if ('every' in m) matcherRegex(m.every, [...at, 'every'], out);
  else if ('fields' in m) matcherRegexes(m.fields, [...at, 'fields'], out);
  else if ('all' in m) m.all.forEach((x, i) => matcherRegex(x, [...at, 'all', i], out));
}

function matcherRegexes(args: Record<string, ArgMatcher> | undefined, base: (string | number)[], out: PathProblem[]): void {
  for (const [path, m] of Object.entries(args ?? {})) matcherRegex(m, [...base, path], out);
}

/** Placeholder names used anywhere in the question-facing text. */
function questionPlaceholders(def: CaseDef): string[] {
  const texts = [def.system ?? '', def.prompt ?? '', ...(def.turns ?? []), JSON.stringify(def.tools ?? []), JSON.stringify(def.tool_script ?? {})];
  return [...new Set(texts.flatMap(placeholders))];
}

/**
 * Consistency rules zod cannot express. Each problem has a path inside the case so the loader can point
 * at the line. (Proof obligations — references pass, answers re-derive — are `cases verify`'s job.)
 */
export function semanticProblems(def: CaseDef): PathProblem[] {
  const out: PathProblem[] = [];
  const add = (path: (string | number)[], message: string) => out.push({ path, message });
  if (!def.id.startsWith(`${def.category}-`)) add(['id'], `must start with "${def.category}-" (the category)`);
  if ((def.prompt === undefined) === (def.turns === undefined)) add(['prompt'], 'give exactly one of prompt or turns');
  if (def.difficulty === 'hard' && !def.why_hard) add(['why_hard'], 'hard cases say why they are hard (why_hard)');
  out.push(...calibrationProblems(def));
  for (const name of Object.keys(def.params ?? {})) {
    if (RESERVED.has(name)) add(['params', name], `"${name}" is reserved`);
    const spec = def.params![name]!;
    if ('int' in spec && spec.int[0] > spec.int[1]) add(['params', name, 'int'], 'min is greater than max');
  }
  const seeded = def.params !== undefined || def.derive !== undefined;
  const used = questionPlaceholders(def);
  if (!seeded && !def.haystack && used.length > 0) add(['prompt'], `{{${used[0]}}} used, but the case has no params, derive or haystack`);
  if (def.haystack && !used.includes('haystack')) add(['prompt'], 'a haystack case must place {{haystack}} in its prompt');
  if (!seeded && def.verify?.seeds) add(['verify', 'seeds'], 'seeds only apply to seeded cases (params / derive)');
  if (def.verify?.expect === 'unique_solution' && !def.verify.program) add(['verify', 'program'], 'unique_solution needs a program');

  const g = def.grader;
  const r = def.reference;
  const hasAnswer = r.answer !== undefined || def.derive !== undefined;
  switch (g.type) {
    case 'code':
      if (!r.solution) add(['reference', 'solution'], 'code cases need a reference solution');
      if (!def.verify?.wrong_solutions?.length) add(['verify', 'wrong_solutions'], 'code cases need at least one wrong solution (a negative control)');
      if (g.complexity && !def.verify?.wrong_solutions?.some((w) => w.too_slow)) {
        add(['verify', 'wrong_solutions'], 'complexity-enforcing cases need a too_slow naive solution');
      }
      break;
    case 'number':
    case 'exact':
    case 'choice':
      if (!hasAnswer) add(['reference', 'answer'], `a ${g.type} grader needs reference.answer (or a derive program)`);
      if (g.type === 'choice' && typeof r.answer === 'string' && !g.options.includes(r.answer)) add(['reference', 'answer'], `not one of the options ${g.options.join(', ')}`);
      break;
    case 'assignments':
      if (!hasAnswer) add(['reference', 'answer'], 'an assignments grader needs reference.answer as a key → value map');
      else if (r.answer !== undefined && typeof r.answer !== 'object' && !def.derive) add(['reference', 'answer'], 'must be a key → value map');
      break;
    case 'judge':
      if (r.answer === undefined) add(['reference', 'answer'], 'judged cases need a reference answer');
      if (!r.facts?.length) add(['reference', 'facts'], 'judged cases list the facts a correct answer must contain');
      if (g.checks) checkRegexes(g.checks, ['grader', 'checks'], out);
      break;
    case 'tool_calls': {
      if (!def.tools?.length) add(['tools'], 'a tool_calls grader needs tools');
      const declared = new Set((def.tools ?? []).map((t) => t.name));
      const checkNames = (list: CallMatcher[] | undefined, key: string, mustExist: boolean) =>
        (list ?? []).forEach((m, i) => {
          if (mustExist && !declared.has(m.name)) add(['grader', key, i, 'name'], `"${m.name}" is not a declared tool`);
          matcherRegexes(m.args, ['grader', key, i, 'args'], out);
        });
      checkNames(g.calls, 'calls', true);
      checkNames(g.forbid, 'forbid', false);
      if (!g.calls?.length && !g.no_calls && !g.forbid?.length && !g.answer && !g.final_answer) add(['grader'], 'say what to expect: calls, no_calls, forbid or answer');
      if (g.answer_checks) checkRegexes(g.answer_checks, ['grader', 'answer_checks'], out);
      for (const name of Object.keys(g.counts ?? {})) if (!declared.has(name)) add(['grader', 'counts', name], `"${name}" is not a declared tool`);
      if (!r.calls && !r.reply) add(['reference'], 'give reference.calls and/or reference.reply (what a correct model does)');
      break;
    }
    case 'checks':
      checkRegexes(g.checks, ['grader', 'checks'], out);
      if (r.reply === undefined) add(['reference', 'reply'], 'checks cases need a reference reply that passes every check');
      break;
    case 'agent':
      g.parts.forEach((p, i) => {
        if (p.kind === 'checks') checkRegexes(p.checks, ['grader', 'parts', i, 'checks'], out);
        if (p.kind === 'acknowledges') {
          (p.forbid_patterns ?? []).forEach((f, j) => {
            const e = regexProblem(f, 'i');
            if (e) add(['grader', 'parts', i, 'forbid_patterns', j], e);
          });
        }
      });
      if (r.reply === undefined) add(['reference', 'reply'], 'agent cases need a reference reply that passes every part');
      break;
    case 'regex': {
      for (const [i, p] of [g.pattern, ...(g.forbid ?? [])].entries()) {
        const e = regexProblem(p, g.flags);
        if (e) add(i === 0 ? ['grader', 'pattern'] : ['grader', 'forbid', i - 1], e);
      }
      if (r.reply === undefined && r.answer === undefined) add(['reference'], 'give reference.reply (or answer) that matches');
      break;
    }
    case 'contains':
      if (!g.all?.length && !g.any?.length) add(['grader'], 'give all or any needles');
      if (r.reply === undefined && r.answer === undefined) add(['reference'], 'give reference.reply (or answer) that contains the needles');
      break;
    case 'json':
      if (r.reply === undefined) add(['reference', 'reply'], 'json cases need a reference reply');
      break;
  }
  if (def.tool_script) {
    const declared = new Set((def.tools ?? []).map((t) => t.name));
    def.tool_script.results.forEach((rule, i) => {
      if (!declared.has(rule.tool)) add(['tool_script', 'results', i, 'tool'], `"${rule.tool}" is not a declared tool`);
      matcherRegexes(rule.when, ['tool_script', 'results', i, 'when'], out);
    });
  }
  return out;
}
