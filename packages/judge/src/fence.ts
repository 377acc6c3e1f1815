import { createHash } from 'node:crypto';

/** A candidate text wrapped between two marker lines that carry a token the text cannot contain. */
export interface Fenced {
  token: string;
  begin: string;
  end: string;
  /** begin + newline + body + newline + end */
  block: string;
  /** Characters cut from the middle of an over-long text (0 when nothing was cut). */
  omitted: number;
}

/**
 * A 16-hex-character token derived from SHA-256 of `salt` and every text that will sit inside a fence
 * of the same prompt. Guessing it means writing a text that contains a hash of itself, so a candidate
 * cannot close its fence early or forge the end marker. If a text contains the token anyway, the
 * counter moves on, so the guarantee does not rest on luck.
 */
export function fenceToken(texts: readonly string[], salt = ''): string {
  for (let counter = 0; ; counter++) {
    const hash = createHash('sha256');
    hash.update(`${salt}\u0000${counter}`);
    for (const t of texts) hash.update(`\u0000${t.length}\u0000${t}`);
    const token = hash.digest('hex').slice(0, 16);
    if (!texts.some((t) => t.includes(token))) return token;
  }
}

/** Keeps the head (70 %) and tail (30 %) of a text longer than `maxChars`, with a visible cut marker. */
export function clampMiddle(text: string, maxChars: number): { text: string; omitted: number } {
  if (text.length <= maxChars) return { text, omitted: 0 };
  const head = Math.floor(maxChars * 0.7);
  const tail = maxChars - head;
  const omitted = text.length - head - tail;
  return { text: `${text.slice(0, head)}\n[… ${omitted} characters omitted for length …]\n${text.slice(text.length - tail)}`, omitted };
}

/** Wraps `text` between `<<<BEGIN {label} {token}>>>` and `<<<END {label} {token}>>>` lines. */
export function fence(label: string, text: string, token: string, maxChars: number): Fenced {
  const clamped = clampMiddle(text, maxChars);
  const begin = `<<<BEGIN ${label} ${token}>>>`;
  const end = `<<<END ${label} ${token}>>>`;
  return { token, begin, end, block: `${begin}\n${clamped.text}\n${end}`, omitted: clamped.omitted };
}

/** What a judge prompt's fences hold, as the judge model reads them (see {@link readFencedPrompt}). */
export interface FencedPrompt {
  /** The token the prompt announces ("… with token <16 hex>."). */
  token: string;
  /** Everything before the first fence: instructions, question, reference, key facts, grading focus. */
  before: string;
  /** Each fenced text by its label (CANDIDATE ANSWER, ANSWER A, ANSWER B); a fence without its END line is absent. */
  blocks: Record<string, string>;
  /** How often each label's END line (with the token) occurs in the whole prompt. */
  endCounts: Record<string, number>;
}

/**
 * Reads a fenced judge prompt the way an honest judge does: only the marker lines carrying the token the
 * prompt announces count, so a forged END marker or a claimed verdict inside an answer stays part of that
 * answer. The reader of what {@link fence} writes (the demo's simulated judge and the tests use it); null when
 * the prompt announces no token.
 */
export function readFencedPrompt(prompt: string): FencedPrompt | null {
  const token = /with token ([0-9a-f]{16})\./.exec(prompt)?.[1];
  if (!token) return null;
  const blocks: Record<string, string> = {};
  const endCounts: Record<string, number> = {};
  let first = -1;
  for (const m of prompt.matchAll(new RegExp(`<<<BEGIN ([A-Z ]+) ${token}>>>\\n`, 'g'))) {
    const label = m[1]!;
    const at = m.index ?? 0;
    if (first === -1) first = at;
    const start = at + m[0].length;
    const end = `\n<<<END ${label} ${token}>>>`;
    const stop = prompt.indexOf(end, start - 1);
    if (stop >= 0 && !(label in blocks)) blocks[label] = prompt.slice(start, Math.max(start, stop));
    endCounts[label] = prompt.split(end).length - 1;
  }
  return { token, before: first === -1 ? prompt : prompt.slice(0, first), blocks, endCounts };
}
