import { balancedJsonSpans, stripThinking, type JsonSpan as Span } from '@crucibleforge/core';
import type { z } from 'zod';

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const squash = (s: string) => s.replace(/\s+/g, '');

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
  const spans = balancedJsonSpans(text, { arrays: false }).filter((s) => tryParse(text.slice(s.start, s.end + 1)) !== undefined);
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
