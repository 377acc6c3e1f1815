import type { Check } from '../schema/checks';
import type { Count } from '../schema/common';
import { inventedFigures } from '../answers/grounded';
import { fencedBlocks } from '../text/code';
import { jsonSpecProblem } from '../text/json';
import { containsNeedle, countWord, escapeRegExp, foldText } from '../text/normalize';
import { bulletLines, caseViolation, headingTitle, nonBlankLines, paragraphs, sentences, words } from './units';

export interface CheckResult {
  pass: boolean;
  /** `52 words, expected exactly 50` — short, names the value found. */
  detail: string;
}

/** null when the count satisfies the constraint, else `expected …`. */
export function countProblem(n: number, c: Count): string | null {
  if (c.exactly !== undefined && n !== c.exactly) return `expected exactly ${c.exactly}`;
  if (c.min !== undefined && n < c.min) return `expected at least ${c.min}`;
  if (c.max !== undefined && n > c.max) return `expected at most ${c.max}`;
  return null;
}

/** `match` → `matches`, `word` → `words`, `"tide" occurrence` → `"tide" occurrences`. */
export function plural(unit: string, n: number): string {
  if (n === 1) return unit;
  return /(?:s|x|z|ch|sh)$/.test(unit) ? `${unit}es` : `${unit}s`;
}

function counted(n: number, unit: string, c: Count): CheckResult {
  const problem = countProblem(n, c);
  const found = `${n} ${plural(unit, n)}`;
  return problem ? { pass: false, detail: `${found}, ${problem}` } : { pass: true, detail: found };
}

const ok = (detail: string): CheckResult => ({ pass: true, detail });
const bad = (detail: string): CheckResult => ({ pass: false, detail });

/** Compiles a case regex; invalid patterns are caught by `cases verify` before any run. */
export function caseRegex(pattern: string, flags = '', extra = ''): RegExp {
  const all = [...new Set((flags + extra).split(''))].join('');
  return new RegExp(pattern, all);
}

function firstIndex(text: string, item: string): number {
  const re = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(foldText(item)).replace(/ /g, '\\s+')}(?![\\p{L}\\p{N}_])`, 'u');
  const m = re.exec(foldText(text));
  return m ? m.index : -1;
}

/** The prose of a reply: fenced code blocks and bare JSON objects removed. */
export function proseOf(reply: string): string {
  let text = reply.replace(/^[ \t]{0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n[ \t]{0,3}\1[`~]*[ \t]*(?=\n|$)|(?![\s\S]))/gm, '\n');
  for (let from = text.indexOf('{'); from >= 0; from = text.indexOf('{', from + 1)) {
    let depth = 0;
    for (let i = from; i < text.length; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}' && --depth === 0) {
        try {
          JSON.parse(text.slice(from, i + 1));
          text = `${text.slice(0, from)}${text.slice(i + 1)}`;
        } catch {
          // not JSON: prose that happens to contain braces
        }
        break;
      }
    }
  }
  return text.trim();
}

/** What some checks compare the reply with: the prompt the model saw. */
export interface CheckContext {
  prompt?: string;
}

/** Runs one instruction check on a reply (thinking already stripped, not trimmed). Pure. */
export function runCheck(check: Check, reply: string, ctx: CheckContext = {}): CheckResult {
  const text = 'prose' in check && check.prose ? proseOf(reply) : reply.trim();
  switch (check.check) {
    case 'word_count':
      return counted(words(text).length, 'word', check);
    case 'sentence_count':
      return counted(sentences(text).length, 'sentence', check);
    case 'paragraph_count':
      return counted(paragraphs(text).length, 'paragraph', check);
    case 'line_count':
      return counted(nonBlankLines(text).length, 'line', check);
    case 'char_count':
      return counted([...text].length, 'character', check);
    case 'bullet_count':
      return counted(bulletLines(text, check.style).length, 'bullet', check);
    case 'code_block_count': {
      const lang = check.lang?.toLowerCase();
      return counted(fencedBlocks(text).filter((b) => lang === undefined || b.lang === lang).length, `${lang ? `${lang} ` : ''}code block`, check);
    }
    case 'word_frequency':
      return counted(countWord(text, check.word), `"${check.word}" occurrence`, check);
    case 'regex_count':
      return counted([...text.matchAll(caseRegex(check.pattern, check.flags, 'g'))].length, 'match', check);
    case 'letter_case': {
      const v = caseViolation(text, check.mode, check.except);
      return v ? bad(`"${v}" is not ${check.mode}case`) : ok(`all ${check.mode}case`);
    }
    case 'forbidden_words': {
      const hit = check.words.find((w) => containsNeedle(text, w));
      return hit ? bad(`forbidden word "${hit}" used`) : ok('no forbidden word');
    }
    case 'required_words': {
      const miss = check.words.find((w) => (Array.isArray(w) ? !w.some((x) => containsNeedle(text, x)) : !containsNeedle(text, w)));
      return miss ? bad(`required word ${Array.isArray(miss) ? miss.map((m) => `"${m}"`).join(' or ') : `"${miss}"`} missing`) : ok('all required words present');
    }
    case 'forbidden_letters': {
      const letters = [...check.letters.toLowerCase()];
      const hit = letters.find((l) => text.toLowerCase().includes(l));
      return hit ? bad(`letter "${hit}" used`) : ok('no forbidden letter');
    }
    case 'required_sections': {
      const titles = text.split('\n').map((l) => foldText(headingTitle(l)));
      let last = -1;
      for (const section of check.sections) {
        const want = foldText(section);
        const idx = titles.findIndex((t, i) => (check.ordered === false || i > last) && (t === want || t.startsWith(`${want}:`)));
        if (idx < 0) {
          const anywhere = titles.some((t) => t === want || t.startsWith(`${want}:`));
          return bad(anywhere ? `section "${section}" out of order` : `section "${section}" missing`);
        }
        last = idx;
      }
      return ok(`${check.sections.length} sections present`);
    }
    case 'starts_with': {
      const [a, b] = check.ignore_case ? [text.toLowerCase(), check.text.toLowerCase()] : [text, check.text];
      return a.startsWith(b) ? ok('starts correctly') : bad(`starts with "${text.slice(0, 30)}", expected "${check.text}"`);
    }
    case 'ends_with': {
      const want = check.text.trim();
      const [a, b] = check.ignore_case ? [text.toLowerCase(), want.toLowerCase()] : [text, want];
      return a.endsWith(b) ? ok('ends correctly') : bad(`ends with "${text.slice(-30)}", expected "${want}"`);
    }
    case 'order': {
      let prev = -1;
      for (const item of check.items) {
        const idx = firstIndex(text, item);
        if (idx < 0) return bad(`"${item}" not mentioned`);
        if (idx < prev) return bad(`"${item}" comes too early`);
        prev = idx;
      }
      return ok('in order');
    }
    case 'regex':
      return caseRegex(check.pattern, check.flags).test(text) ? ok('matches') : bad(`does not match /${check.pattern}/`);
    case 'forbid_regex': {
      const m = caseRegex(check.pattern, check.flags).exec(text);
      return m ? bad(`forbidden pattern found: "${m[0].slice(0, 40)}"`) : ok('no forbidden pattern');
    }
    case 'every_line': {
      const re = caseRegex(check.pattern, check.flags);
      const offending = nonBlankLines(text).find((l) => !re.test(l));
      return offending === undefined ? ok('every line matches') : bad(`line "${offending.trim().slice(0, 40)}" does not match`);
    }
    case 'exact_text':
      return text.replace(/\r\n/g, '\n') === check.text.trim() ? ok('exact') : bad(`text differs from "${check.text.trim().slice(0, 40)}"`);
    case 'json': {
      const problem = jsonSpecProblem(check, text);
      return problem ? bad(problem) : ok('valid JSON');
    }
    case 'grounded': {
      if (ctx.prompt === undefined) return bad('no prompt to check the figures against');
      const invented = inventedFigures(text, ctx.prompt, check.units, check.allow);
      return invented.length > 0 ? bad(`figures the prompt never gives: ${invented.slice(0, 3).join(', ')}`) : ok('only figures the prompt gives');
    }
  }
}

/** Runs every check (trailing spaces of each line removed first); the reason names the first failure. */
export function runChecks(checks: Check[], reply: string, ctx: CheckContext = {}): { results: (CheckResult & { check: string; label: string })[]; firstFailure: string | null } {
  // spaces at the end of a line are invisible: no check reads them
  const text = reply.replace(/[ \t]+$/gm, '');
  const results = checks.map((c, i) => ({ ...runCheck(c, text, ctx), check: c.check, label: c.label ?? `${i + 1} ${c.check}` }));
  const failed = results.find((r) => !r.pass);
  return { results, firstFailure: failed ? `check ${failed.label} failed: ${failed.detail}` : null };
}
