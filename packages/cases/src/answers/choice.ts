import { containsNeedle, escapeRegExp } from '../text/normalize';
import { cleanValue, stripParentheticals } from './clean';

export type ChoiceExtraction = { ok: true; option: string } | { ok: false; reason: string };

/** The option texts a question lists: `A) Grey Tansy B) Kettle Wren`, `(C) Amber Pike`, `D. Merrow Lark` (one per line or inline). */
export function optionTexts(question: string, options: string[]): Map<string, string> {
  const letters = options.map(escapeRegExp).join('|');
  const re = new RegExp(String.raw`(?:^|[\s(])(${letters})[).:]\s+(.+?)(?=\s+\(?(?:${letters})[).:]\s|\n|$)`, 'gm');
  const out = new Map<string, string>();
  for (const m of question.matchAll(re)) {
    const text = m[2]!.trim().replace(/[.;,]$/, '');
    if (text && !out.has(m[1]!)) out.set(m[1]!, text);
  }
  return out;
}

/**
 * The option an answer value names: by its letter (`C`, `(C)`, `C)`, `**C**`, `Option C`) or by its text
 * (`Amber Pike`, `C) Amber Pike`). Naming two options (`B or C`, `C) Kettle Wren`) fails.
 */
export function extractChoice(value: string, options: string[], question: string): ChoiceExtraction {
  const v = cleanValue(value);
  const byLetter = options.filter((o) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(o)}(?![\\p{L}\\p{N}])`, o.length === 1 ? 'u' : 'iu').test(stripParentheticals(v) || v));
  const texts = optionTexts(question, options);
  const byText = [...texts].filter(([, text]) => containsNeedle(v, text)).map(([o]) => o);
  const named = [...new Set([...byLetter, ...byText])];
  if (named.length === 0) return { ok: false, reason: `no option (${options.join(', ')}) in the answer` };
  if (named.length > 1) return { ok: false, reason: `several options given: ${named.join(', ')}` };
  return { ok: true, option: named[0]! };
}
