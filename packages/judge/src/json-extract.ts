import type { z } from 'zod';

/** Where a balanced `{…}` span starts and ends (inclusive) in a text. */
interface Span {
  start: number;
  end: number;
}

/**
 * Index of the `}` that closes the `{` at `start`, or -1 when the text ends first. Braces inside JSON
 * strings (with backslash escapes) do not count.
 */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/**
 * Every top-level balanced `{…}` span, left to right. A `{` that never closes (prose, a truncated
 * object) is skipped and the scan goes on after it, so one stray brace cannot hide a later object.
 * Objects nested in an earlier span are not reported on their own.
 */
export function balancedObjectSpans(text: string): Span[] {
  const spans: Span[] = [];
  let i = text.indexOf('{');
  while (i !== -1) {
    const end = closingBrace(text, i);
    if (end === -1) {
      i = text.indexOf('{', i + 1);
    } else {
      spans.push({ start: i, end });
      i = text.indexOf('{', end + 1);
    }
  }
  return spans;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const squash = (s: string) => s.replace(/\s+/g, '');

/** Removes a leading `<think>…</think>` block: reasoning that leaked into the content channel. */
export function stripThinking(content: string): string {
  const match = /^\s*<think>[\s\S]*?<\/think>/.exec(content);
  return match ? content.slice(match[0].length) : content;
}

export type ExtractResult<T> =
  | { ok: true; value: T; via: 'whole' | 'last-object' }
  | { ok: false; problem: string };

/**
 * Reads a JSON verdict out of a reply's content: the whole text if it is JSON, else the LAST balanced
 * object in it. The chosen object must satisfy `schema`; an earlier object is never used instead,
 * because the judge's own verdict comes last and earlier objects are usually quotes.
 *
 * `quoted` lists texts the judge was shown as data (candidate answers). An object that appears in one
 * of them verbatim (ignoring whitespace) is a quote of the answer, not a verdict, and is skipped.
 */
export function extractJson<T>(content: string, schema: z.ZodType<T>, quoted: readonly string[] = []): ExtractResult<T> {
  const text = stripThinking(content).trim();
  if (text === '') return { ok: false, problem: 'empty content' };
  const squashedQuotes = quoted.map(squash).filter((q) => q.length > 0);
  const isQuote = (candidate: string) => {
    const s = squash(candidate);
    return squashedQuotes.some((q) => q.includes(s));
  };

  const check = (raw: string, via: 'whole' | 'last-object'): ExtractResult<T> => {
    const parsed = schema.safeParse(tryParse(raw));
    if (parsed.success) return { ok: true, value: parsed.data, via };
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'object';
    return { ok: false, problem: `JSON does not match the verdict schema (${where}: ${issue?.message ?? 'invalid'})` };
  };

  if (tryParse(text) !== undefined && !isQuote(text)) return check(text, 'whole');
  const spans = balancedObjectSpans(text).filter((s) => tryParse(text.slice(s.start, s.end + 1)) !== undefined);
  for (let k = spans.length - 1; k >= 0; k--) {
    const span = spans[k] as Span;
    const raw = text.slice(span.start, span.end + 1);
    if (isQuote(raw)) continue;
    return check(raw, 'last-object');
  }
  if (spans.length > 0 || (tryParse(text) !== undefined && isQuote(text))) {
    return { ok: false, problem: 'only JSON quoted from the candidate text, no verdict of its own' };
  }
  return { ok: false, problem: text.includes('{') ? 'no complete JSON object (truncated or malformed)' : 'no JSON object' };
}
