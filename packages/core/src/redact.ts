/** What stands in for a secret in redacted text. */
export const REDACTED = '[redacted]';

/**
 * Returns a function that replaces every secret (and its JSON-escaped form, so a secret inside serialised
 * JSON is caught too) with `[redacted]`. Values shorter than 4 characters are ignored (they would match
 * ordinary text). A last line of defence: an endpoint's error text may echo the key it was sent.
 */
export function makeRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const given = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  const values = [...new Set(given.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))].sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const value of values) if (out.includes(value)) out = out.split(value).join(REDACTED);
    return out;
  };
}

/** `makeRedactor(secrets)(text)`: one text, once. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return makeRedactor(secrets)(text);
}

/** Redacts every string inside a JSON-shaped value (objects, arrays, strings); other values pass through. */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, redact)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, redact);
    return out as T;
  }
  return value;
}
