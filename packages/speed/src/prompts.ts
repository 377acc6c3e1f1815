import type { RandomSource } from '@crucibleforge/core';

export type SpeedPromptName = 'short_50' | 'medium_200' | 'long_800';
export type SpeedPromptKey = 'short' | 'medium' | 'long';

export interface SpeedPrompt {
  key: SpeedPromptKey;
  name: SpeedPromptName;
  /** The prompt without its nonce prefix. */
  text: string;
}

// Each asks for a long answer so there is plenty to decode; lengths include the 11-character nonce.
const SHORT = 'Write a long story about a lighthouse.';
const MEDIUM =
  'Explain in detail how a household refrigerator moves heat from inside to outside. ' +
  'Cover the compressor, condenser, expansion valve and evaporator, in plain words. Say why the back feels warm.';
const LONG =
  'You are writing a chapter for a field guide used by volunteers who restore old stone walls in hill country. ' +
  'The volunteers range from retired engineers to teenagers on their first outing, so the text must be clear ' +
  'without being simplistic. Describe a full working day: how the team inspects a collapsed section, decides ' +
  'which stones can be reused, sorts them by size and shape, digs out a firm foundation, sets the large base ' +
  'stones, builds up both faces of the wall while filling the middle with small hearting stones, places the ' +
  'through-stones that tie the faces together, and finishes with a row of coping stones. Explain the reasoning ' +
  'behind each step, the common mistakes beginners make and how to correct them, and the safety habits that ' +
  'prevent injuries. Write at least ten paragraphs.';

export const SPEED_PROMPTS: readonly SpeedPrompt[] = [
  { key: 'short', name: 'short_50', text: SHORT },
  { key: 'medium', name: 'medium_200', text: MEDIUM },
  { key: 'long', name: 'long_800', text: LONG },
];

/** An 8-hex-digit nonce from the injected random source. */
export function makeNonce(random: RandomSource = Math.random): string {
  let out = '';
  for (let i = 0; i < 8; i++) out += Math.floor(random() * 16).toString(16);
  return out;
}

/** A unique nonce at the very start of the prompt defeats prefix caches (metrics.md). */
export function withNonce(text: string, nonce: string): string {
  return `[${nonce}] ${text}`;
}

const FILLER =
  'The archive kept weather records from many small stations: daily highs and lows, rainfall, wind direction, ' +
  'cloud cover and notes written by the observers about frost, fog and storms. ';

/**
 * A prompt of about `tokens` tokens (≈4 characters per token of English prose) for the depth sweep:
 * filler records, then a request for a long answer. The nonce goes first.
 */
export function depthPrompt(tokens: number, nonce: string): string {
  const ask = '\n\nSummarise the records above in a long, detailed report.';
  const target = Math.max(0, tokens * 4 - ask.length - 11);
  const body = FILLER.repeat(Math.ceil(target / FILLER.length)).slice(0, target);
  return withNonce(`${body}${ask}`, nonce);
}

/** Parses sweep values like "1k,4k,16k" or "1024,4096" into numbers; null for a bad item. */
export function parseCount(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*([kK])?$/.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]) * (m[2] ? 1024 : 1);
  return Number.isInteger(n) && n > 0 ? n : null;
}
