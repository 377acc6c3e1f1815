/**
 * The client's token estimate for one token-bearing event: about four characters per token, and
 * never less than one (an event that carries text carries at least one token). Rough by design;
 * it exists to catch a server whose `usage` is far off, not to replace it.
 */
export function estimateEventTokens(chars: number): number {
  return chars <= 0 ? 0 : Math.max(1, Math.round(chars / 4));
}

/** The same estimate for a whole text (≈4 characters per token). */
export function estimateTextTokens(text: string): number {
  return text.length === 0 ? 0 : Math.max(1, Math.round(text.length / 4));
}

/** |a − b| ÷ b > tolerance (false when either side is missing or b is 0 and a is 0). */
export function disagrees(a: number | null, b: number | null, tolerance: number): boolean {
  if (a === null || b === null) return false;
  if (b === 0) return a !== 0;
  return Math.abs(a - b) / Math.abs(b) > tolerance;
}
