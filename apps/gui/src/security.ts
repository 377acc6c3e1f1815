import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Bind addresses that need no token: this machine only. Anything else (127.0.0.2, 0.0.0.0, a LAN address) needs one. */
export const LOOPBACK_BINDS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Host names a browser uses for a loopback server (the Host header is checked against these without a token). */
const LOOPBACK_HOST_NAMES: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Shortest token accepted from the user (a generated one is 32 characters). */
export const MIN_TOKEN_LENGTH = 16;

export function isLoopbackBind(host: string): boolean {
  return LOOPBACK_BINDS.has(host.trim().toLowerCase());
}

/** 24 random bytes, URL-safe base64 (32 characters). */
export function generateToken(bytes: (n: number) => Buffer = randomBytes): string {
  return bytes(24).toString('base64url');
}

/**
 * The token in force: the given one, else a generated one when the bind address is not loopback, else none.
 * Throws (with the reason) for a token that is too short or has characters a URL would mangle.
 */
export function resolveToken(host: string, given: string | undefined, bytes?: (n: number) => Buffer): { token: string | null; generated: boolean } {
  if (given !== undefined) {
    if (given.length < MIN_TOKEN_LENGTH) throw new Error(`the token must be at least ${MIN_TOKEN_LENGTH} characters (got ${given.length})`);
    if (!/^[A-Za-z0-9._~-]+$/.test(given)) throw new Error('the token may use only letters, digits and . _ ~ - (it travels in a URL)');
    return { token: given, generated: false };
  }
  if (isLoopbackBind(host)) return { token: null, generated: false };
  return { token: generateToken(bytes), generated: true };
}

/** Constant-time comparison: both sides are hashed first so their lengths never leak or matter. */
export function tokensEqual(candidate: string, expected: string): boolean {
  const a = createHash('sha256').update(candidate, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // keep it raw; it will simply not match
    }
    if (!cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

export function bearerOf(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

export type AuthResult =
  | { ok: true; via: 'none' | 'bearer' | 'cookie' }
  /** The right `?token=` was given: set the cookie and send the browser to the same URL without it. */
  | { ok: true; via: 'query'; cookie: string }
  | { ok: false; reason: string };

export interface AuthPolicy {
  token: string | null;
  cookieName: string;
}

/** Checks the token on one request (bearer header, cookie or `?token=`). Every request goes through this. */
export function authenticate(req: IncomingMessage, queryToken: string | null, policy: AuthPolicy): AuthResult {
  if (policy.token === null) return { ok: true, via: 'none' };
  const bearer = bearerOf(req);
  if (bearer !== null) return tokensEqual(bearer, policy.token) ? { ok: true, via: 'bearer' } : { ok: false, reason: 'wrong bearer token' };
  if (queryToken !== null) {
    if (!tokensEqual(queryToken, policy.token)) return { ok: false, reason: 'wrong token in the URL' };
    const cookie = `${policy.cookieName}=${encodeURIComponent(policy.token)}; HttpOnly; SameSite=Strict; Path=/`;
    return { ok: true, via: 'query', cookie };
  }
  const fromCookie = parseCookies(req.headers.cookie).get(policy.cookieName);
  if (fromCookie !== undefined) return tokensEqual(fromCookie, policy.token) ? { ok: true, via: 'cookie' } : { ok: false, reason: 'wrong token cookie' };
  return { ok: false, reason: 'this server needs its token: open the URL it printed (…/?token=…) or send Authorization: Bearer <token>' };
}

/** The host name in a Host header (`[::1]` keeps its brackets), lower case; null when malformed. */
export function hostNameOf(hostHeader: string | undefined): string | null {
  if (!hostHeader) return null;
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Without a token the only protection is that the server is reachable from this machine alone, so the Host
 * header must be a loopback name: a page on another site that rebinds its DNS name to 127.0.0.1 is refused.
 */
export function hostAllowed(req: IncomingMessage, policy: AuthPolicy): boolean {
  if (policy.token !== null) return true;
  const name = hostNameOf(req.headers.host);
  return name !== null && LOOPBACK_HOST_NAMES.has(name);
}

/**
 * A state-changing request must come from this server's own page: `Sec-Fetch-Site` (when sent) must be
 * `same-origin`, `Origin` (when sent) must be this server's origin, and a request carrying neither (not a
 * browser) must authenticate with the bearer header. Returns why it is refused, or null.
 */
export function crossOriginReason(req: IncomingMessage): string | null {
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  if (typeof site === 'string' && site !== 'same-origin') return `cross-site request refused (Sec-Fetch-Site: ${site})`;
  if (typeof origin === 'string') {
    const expected = `http://${req.headers.host ?? ''}`.toLowerCase();
    if (origin.toLowerCase() !== expected) return `cross-origin request refused (Origin ${origin} is not ${expected})`;
    return null;
  }
  if (typeof site === 'string') return null;
  if (bearerOf(req) !== null) return null;
  return 'a POST must come from the GUI page (Origin header) or carry Authorization: Bearer <token>';
}
