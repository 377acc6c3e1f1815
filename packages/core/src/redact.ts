/** What stands in for a secret in redacted text. */
export const REDACTED = '[redacted]';

/** Encoded fragments shorter than this are not searched for (they would match ordinary text). */
const MIN_FRAGMENT = 6;

/**
 * The part of a base64 encoding that is the same wherever the secret sits in the encoded text: for each of
 * the three byte alignments, the characters whose six bits all come from the secret. Catches the secret
 * alone and inside a longer encoded value (`Basic base64(user:key)`, a base64 JSON blob).
 */
function base64Fragments(bytes: Uint8Array): string[] {
  const fragments: string[] = [];
  for (let align = 0; align < 3; align += 1) {
    const encoded = btoa(String.fromCharCode(...new Array<number>(align).fill(0), ...bytes));
    fragments.push(encoded.slice(Math.ceil((8 * align) / 6), Math.floor((8 * (align + bytes.length)) / 6)));
  }
  return fragments;
}

/** Every common spelling of a secret: as is, JSON-escaped, URL-encoded (also every byte), base64, base64url, hex. */
export function secretForms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const b64 = base64Fragments(bytes);
  const forms = [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
    ...b64,
    ...b64.map((f) => f.replace(/\+/g, '-').replace(/\//g, '_')),
    [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(''),
  ];
  return [...new Set(forms)].filter((form) => form === secret || form.length >= MIN_FRAGMENT);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Returns a function that replaces every secret with `[redacted]`, in any of its common encodings (see
 * {@link secretForms}) and in any letter case (`SK-ABC…`, `%2f` vs `%2F`). Values shorter than 4 characters
 * are ignored (they would match ordinary text). The one redactor of the project: a last line of defence, as an
 * endpoint's error text may echo the key it was sent.
 */
export function makeRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const given = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  const values = [...new Set(given.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  const pattern = new RegExp(values.map(escapeRegExp).join('|'), 'gi');
  return (text) => {
    pattern.lastIndex = 0;
    return pattern.test(text) ? text.replace(pattern, REDACTED) : text;
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
