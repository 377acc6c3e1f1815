/**
 * Counting units of a reply the same way a careful human would: list markers and heading hashes are not
 * words, decimals and abbreviations do not end sentences, letters are the only thing case rules look at.
 */

const BULLET = /^\s*(?:[-*+•‣◦]|\d{1,3}[.)]|[a-z][.)](?=\s))\s+/i;
const HEADING = /^\s*#{1,6}\s+/;

export type BulletStyle = 'any' | 'dash' | 'star' | 'numbered';

const STYLE_MARKERS: Record<Exclude<BulletStyle, 'any'>, RegExp> = {
  dash: /^\s*-\s+\S/,
  star: /^\s*[*+•‣◦]\s+\S/,
  numbered: /^\s*\d{1,3}[.)]\s+\S/,
};

/** Lines that are list items. */
export function bulletLines(text: string, style: BulletStyle = 'any'): string[] {
  const lines = text.split('\n');
  if (style === 'any') return lines.filter((l) => /^\s*(?:[-*+•‣◦]|\d{1,3}[.)])\s+\S/.test(l));
  return lines.filter((l) => STYLE_MARKERS[style].test(l));
}

/** A line without its list marker or heading hashes. */
export function stripLineMarker(line: string): string {
  return line.replace(HEADING, '').replace(BULLET, '');
}

const WORD = /[\p{L}\p{N}]+(?:(?:['’-]|(?<=\p{N})[.,:](?=\p{N}))[\p{L}\p{N}]+)*/gu;

/** Words: runs of letters/digits (with inner apostrophes, hyphens, decimal points); markers excluded. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    for (const m of stripLineMarker(line).matchAll(WORD)) out.push(m[0]);
  }
  return out;
}

const ABBREVIATIONS = new Set([
  'e.g', 'i.e', 'etc', 'vs', 'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'jr', 'sr', 'no', 'fig', 'approx', 'cf', 'al',
  'inc', 'ltd', 'co', 'dept', 'est', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);

/** Blocks: paragraphs split at blank lines, with every list item and heading its own block. */
function sentenceBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) blocks.push(current.join(' '));
    current = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      flush();
    } else if (BULLET.test(line) || HEADING.test(line)) {
      flush();
      blocks.push(stripLineMarker(line));
    } else {
      current.push(line.trim());
    }
  }
  flush();
  return blocks;
}

/** Sentences (each with at least one word). A list item or heading without a full stop is one sentence. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const block of sentenceBlocks(text)) {
    let start = 0;
    const re = /[.!?…]+["'”’)\]]*(?=\s|$)/g;
    for (const m of block.matchAll(re)) {
      const before = block.slice(start, m.index);
      const lastToken = (/([\p{L}.]+)$/u.exec(before)?.[1] ?? '').toLowerCase().replace(/\.$/, '');
      const isAbbrev = m[0] === '.' && (ABBREVIATIONS.has(lastToken) || /^\p{L}$/u.test(lastToken));
      if (isAbbrev) continue;
      const sentence = block.slice(start, m.index + m[0].length).trim();
      if (/[\p{L}\p{N}]/u.test(sentence)) out.push(sentence);
      start = m.index + m[0].length;
    }
    const tail = block.slice(start).trim();
    if (/[\p{L}\p{N}]/u.test(tail)) out.push(tail);
  }
  return out;
}

/** Paragraphs: blocks separated by one or more blank lines that contain a word. */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => /[\p{L}\p{N}]/u.test(p));
}

export function nonBlankLines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() !== '');
}

/** The first word that breaks the case rule, or null. Only letters count; `except` words are skipped. */
export function caseViolation(text: string, mode: 'lower' | 'upper', except: string[] = []): string | null {
  const allowed = new Set(except);
  const bad = mode === 'lower' ? /\p{Lu}/u : /\p{Ll}/u;
  for (const m of text.matchAll(/[\p{L}\p{N}'’-]+/gu)) {
    if (allowed.has(m[0])) continue;
    if (bad.test(m[0])) return m[0];
  }
  return null;
}

/** The lines that look like headings, as plain titles (hashes, bold and a trailing colon removed). */
export function headingTitle(line: string): string {
  return line
    .trim()
    .replace(/^#{1,6}\s*/, '')
    .replace(/^[*_]{1,3}|[*_]{1,3}$/g, '')
    .replace(/[*_]{1,3}(?=:)/, '')
    .replace(/\s*#+$/, '')
    .trim();
}
