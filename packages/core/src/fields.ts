/**
 * Readers for fields of untrusted JSON (an endpoint's reply, a user's file): the value when it has the
 * expected type, else null, so a parser never trusts a shape it did not check.
 */
export type JsonObject = Record<string, unknown>;

/** A finite number, else null (NaN, Infinity, numeric strings and bigints are not numbers here). */
export function finiteNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A string with at least one character, else null. */
export function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** A plain JSON object (not null, not an array), else null. */
export function jsonObject(value: unknown): JsonObject | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}
