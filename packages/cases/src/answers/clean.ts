import { bracedAt } from './final';

/** Replaces `\cmd{…}` (balanced braces) by its content: `\boxed{\text{7Q-8814}}` → `7Q-8814`. */
function unwrapCommands(value: string, commands: string[]): string {
  let v = value;
  for (let guard = 0; guard < 20; guard++) {
    const m = new RegExp(String.raw`\\(?:${commands.join('|')})\s*\{`).exec(v);
    if (!m) break;
    const b = bracedAt(v, m.index + m[0].length - 1);
    if (!b) break;
    v = v.slice(0, m.index) + b.inner + v.slice(b.end);
  }
  return v;
}

/**
 * An answer value without its dressing: `\boxed{}`, `\text{}`, `$…$` and `\(…\)`, LaTeX spacing inside
 * numbers (`141\,566`, `1{,}234`), markdown bold/italics/code, surrounding quotes and trailing punctuation.
 */
export function cleanValue(value: string): string {
  let v = unwrapCommands(value, ['boxed', 'text', 'textbf', 'textit', 'mathrm', 'mathbf', 'operatorname']);
  v = v
    .replace(/\\[,;:!]|\\\s|~/g, '\u2009')
    .replace(/\{,\}/g, ',')
    .replace(/\\(?:times|cdot)/g, '×')
    .replace(/\\%/g, '%')
    .replace(/\\\(|\\\)|\\\[|\\\]|\$+/g, '')
    .replace(/\*\*|__|`+/g, '')
    .replace(/^(?:\s|>|[*_]+|[-•](?=\s))+/, '')
    .replace(/[*_]+$/, '')
    .trim();
  v = v.replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, '').trim();
  v = v.replace(/[.!;,:]+$/, '').trim();
  return v.replace(/\s+/g, ' ');
}

/**
 * Removes parenthesised remarks, nested ones included: `327 (Q(6) = 2R(5)+1)` → `327`. A group at the
 * very start is kept (`(C) Amber Pike` names an option), as are brackets that never close.
 */
export function stripParentheticals(value: string): string {
  let out = '';
  let depth = 0;
  let start = -1;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '(' || ch === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if ((ch === ')' || ch === ']') && depth > 0) {
      depth--;
      if (depth === 0) {
        const group = value.slice(start, i + 1);
        if (out.trim() === '') out += group;
        else out += ' ';
      }
    } else if (depth === 0) out += ch;
  }
  if (depth > 0) out += value.slice(start);
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * The head of an answer value, before a remark: cut at `;`, a spaced dash, a sentence end, or a word that
 * starts an explanation (", because …", " since …", " which …"). `455, because m = 23` → `455`.
 */
export function valueHead(value: string, cutAtComma = true): string {
  const cuts = [/;/, /\s[—–]\s|\s-{1,2}\s/, /\.\s+(?=\S)/, /\s(?:because|since|as|which|so|i\.e\.|e\.g\.|that is|given|where|from|after|with)\s/i];
  if (cutAtComma) cuts.push(/,\s+(?=[\p{Ll}])/u);
  let end = value.length;
  for (const re of cuts) {
    const m = re.exec(value);
    if (m && m.index > 0 && m.index < end) end = m.index;
  }
  return value.slice(0, end).trim();
}
