import { describe, expect, it } from 'vitest';
import { makeRedactor, redactDeep, redactSecrets } from './index';

describe('redactSecrets', () => {
  it('replaces every occurrence of every secret, longest first', () => {
    expect(redactSecrets('key sk-abc-LONG and sk-abc and sk-abc-LONG', ['sk-abc', 'sk-abc-LONG'])).toBe('key [redacted] and [redacted] and [redacted]');
  });

  it('catches the JSON-escaped form of a secret', () => {
    const scrub = makeRedactor(['k"e\\y-1234']);
    expect(scrub(JSON.stringify({ m: 'x k"e\\y-1234 y' }))).toBe('{"m":"x [redacted] y"}');
  });

  it('ignores empty, missing and very short values and leaves other text alone', () => {
    expect(redactSecrets('a b c', ['', undefined, 'a'])).toBe('a b c');
  });

  it('redactDeep walks objects and arrays and keeps numbers', () => {
    const scrub = makeRedactor(['LEAKME-1']);
    expect(redactDeep({ a: ['Bearer LEAKME-1'], b: { c: 'LEAKME-1!' }, n: 3, z: null }, scrub)).toEqual({ a: ['Bearer [redacted]'], b: { c: '[redacted]!' }, n: 3, z: null });
  });
});

describe('makeRedactor: the encodings a key travels in', () => {
  const key = 'sk-Live_9f3a/7c1e+5b2d=4f60?a8&e1';
  const scrub = makeRedactor([key]);
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const b64url = (s: string) => Buffer.from(s).toString('base64url');
  const leaks = (text: string) => {
    const out = scrub(text);
    expect(out).toContain('[redacted]');
    return out;
  };

  it.each([
    ['upper case', `got ${key.toUpperCase()} back`],
    ['lower case', `got ${key.toLowerCase()} back`],
    ['base64', `blob ${b64(key)} end`],
    ['base64url', `blob ${b64url(key)} end`],
    ['base64 inside Basic auth (any alignment)', `authorization: Basic ${b64(`user:${key}`)}`],
    ['base64 at the second alignment', b64(`ab${key}xyz`)],
    ['base64 inside a JSON blob', b64(JSON.stringify({ headers: { authorization: `Bearer ${key}` } }))],
    ['URL-encoded', `https://x.test/?key=${encodeURIComponent(key)}`],
    ['URL-encoded, lower-case escapes', `?key=${encodeURIComponent(key).toLowerCase()}`],
    ['form-encoded', `key=${encodeURIComponent(key).replace(/%20/g, '+')}`],
    ['every byte percent-encoded', [...Buffer.from(key)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')],
    ['hex', Buffer.from(key).toString('hex').toUpperCase()],
    ['JSON-escaped', JSON.stringify({ m: key })],
  ])('%s', (_name, text) => {
    const out = leaks(text);
    // no run of 8 characters of the key (or of its encodings) survives
    for (const form of [key, b64(key), b64url(key), encodeURIComponent(key), Buffer.from(key).toString('hex')]) {
      for (let i = 0; i + 8 <= form.length; i += 4) expect(out.toLowerCase()).not.toContain(form.slice(i, i + 8).toLowerCase());
    }
  });

  it('leaves text without the key alone, also base64 of other text', () => {
    const text = `hello ${b64('some other secret-ish text')} and ${encodeURIComponent('a b/c')}`;
    expect(scrub(text)).toBe(text);
  });
});
