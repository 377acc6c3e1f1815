/**
 * The server's guards over real HTTP: the token off loopback (bearer, ?token= → cookie), same-origin POSTs,
 * traversal in every spelling, and the key scrubber catching a key that an error message would have leaked.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGuiServer, type GuiServer } from './index';
import { insideRoot, pathSegments } from './paths';
import { crossOriginReason, parseCookies, resolveToken, tokensEqual } from './security';
import { DECOY_KEY, KEY_ENV, rawRequest, tempDir, writeCasesDir } from './test-support';

const results = tempDir('cf-gui-sec-results-');
const cases = tempDir('cf-gui-sec-cases-');
const statics = tempDir('cf-gui-sec-static-');
writeCasesDir(cases.dir);
// A static dir with a secret next to it: a traversal that worked would read it.
mkdirSync(join(statics.dir, 'public'));
writeFileSync(join(statics.dir, 'public', 'index.html'), '<!doctype html><title>t</title>');
writeFileSync(join(statics.dir, 'public', 'app.js'), 'export {};');
writeFileSync(join(statics.dir, 'secret.txt'), 'TOP-SECRET-FILE');
writeFileSync(join(results.dir, 'secret.txt'), 'TOP-SECRET-FILE');
afterAll(() => [results, cases, statics].forEach((d) => d.remove()));

const base = (token?: string) => ({ resultsDir: results.dir, casesDir: cases.dir, staticDir: join(statics.dir, 'public'), port: 0, ...(token ? { token } : {}) });

describe('token off loopback', { timeout: 20_000 }, () => {
  let gui: GuiServer;
  const seen: string[] = [];
  beforeAll(async () => {
    gui = await startGuiServer({ ...base(), host: '127.0.0.2' });
  });
  afterAll(() => gui?.close());

  it('generates a 32-character token when none is given and prints it in the open URL', () => {
    expect(gui.tokenGenerated).toBe(true);
    expect(gui.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(gui.openUrl).toBe(`${gui.url}?token=${gui.token}`);
    expect(gui.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/$/);
  });

  it('answers 401 without the token, on the page, the API and static files alike', async () => {
    const page = await rawRequest(gui.url, '/', { headers: { accept: 'text/html' } }, seen);
    expect(page.status).toBe(401);
    expect(page.body).toContain('needs its token');
    expect(page.body).not.toContain('app.js');
    expect((await rawRequest(gui.url, '/api/state', {}, seen)).status).toBe(401);
    expect((await rawRequest(gui.url, '/assets/app.js', {}, seen)).status).toBe(401);
    expect((await rawRequest(gui.url, '/api/state', { headers: { authorization: 'Bearer wrong-token-wrong-token' } }, seen)).status).toBe(401);
    expect((await rawRequest(gui.url, '/api/state?token=nope', {}, seen)).status).toBe(401);
    const cookieWrong = await rawRequest(gui.url, '/api/state', { headers: { cookie: 'crucibleforge_gui=nope' } }, seen);
    expect(cookieWrong.status).toBe(401);
  });

  it('accepts the bearer token', async () => {
    const res = await rawRequest(gui.url, '/api/state', { headers: { authorization: `Bearer ${gui.token}` } }, seen);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).token_required).toBe(true);
  });

  it('turns ?token= into an HttpOnly SameSite=Strict cookie and a redirect without the token; the cookie then works', async () => {
    const login = await rawRequest(gui.url, `/?token=${gui.token}&x=1`, {}, seen);
    expect(login.status).toBe(303);
    expect(login.headers.location).toBe('/?x=1');
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const pair = cookie.split(';')[0]!;
    const page = await rawRequest(gui.url, '/', { headers: { cookie: `other=1; ${pair}` } }, seen);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>t</title>');
    expect((await rawRequest(gui.url, '/api/runs', { headers: { cookie: pair } }, seen)).status).toBe(200);
  });

  it('checks the token before anything else: traversal without a token is still 401, never a file', async () => {
    const res = await rawRequest(gui.url, '/assets/x', {}, seen);
    expect(res.status).toBe(401);
  });
});

describe('binding every interface', { timeout: 20_000 }, () => {
  it('0.0.0.0 requires the given token; a foreign Host header is fine with it', async () => {
    const token = 'a-given-token-of-24-chars';
    const gui = await startGuiServer({ ...base(token), host: '0.0.0.0' });
    try {
      expect(gui.token).toBe(token);
      expect(gui.tokenGenerated).toBe(false);
      expect((await rawRequest(gui.url, '/api/state')).status).toBe(401);
      const ok = await rawRequest(gui.url, '/api/state', { headers: { authorization: `Bearer ${token}`, host: 'workstation.lan:1' } });
      expect(ok.status).toBe(200);
    } finally {
      await gui.close();
    }
  });

  it('refuses a short or URL-unsafe token', async () => {
    await expect(startGuiServer({ ...base('short'), host: '0.0.0.0' })).rejects.toMatchObject({ code: 'GUI_TOKEN_INVALID' });
    await expect(startGuiServer({ ...base('has spaces in it, sadly'), host: '0.0.0.0' })).rejects.toMatchObject({ code: 'GUI_TOKEN_INVALID' });
  });
});

describe('same-origin POSTs and traversal (loopback, no token)', { timeout: 20_000 }, () => {
  let gui: GuiServer;
  const post = (headers: Record<string, string>, body = '{}') =>
    rawRequest(gui.url, '/api/estimate', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  beforeAll(async () => {
    gui = await startGuiServer(base());
  });
  afterAll(() => gui?.close());

  it('refuses cross-origin POSTs with 403 and lets same-origin ones through to validation', async () => {
    const own = gui.url.replace(/\/$/, '');
    const evil = await post({ origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error).toContain('cross-origin');
    expect((await post({ 'sec-fetch-site': 'cross-site', origin: own })).status).toBe(403);
    expect((await post({ 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await post({ origin: 'null' })).status).toBe(403);
    expect((await post({})).status).toBe(403);
    // A form post (no JSON) cannot reach a handler even from the same origin.
    const form = await rawRequest(gui.url, '/api/runs', { method: 'POST', headers: { origin: own, 'content-type': 'application/x-www-form-urlencoded' }, body: 'profile=quick' });
    expect(form.status).toBe(415);
    const same = await post({ origin: own, 'sec-fetch-site': 'same-origin' }, '{"profile":"quick"}');
    expect(same.status).toBe(400);
    expect(JSON.parse(same.body).error).toContain('field models');
    expect((await post({ authorization: 'Bearer anything' }, '{"profile":"quick"}')).status).toBe(400);
    expect((await rawRequest(gui.url, '/', { method: 'POST', headers: { origin: own, 'content-type': 'application/json' }, body: '{}' })).status).toBe(405);
  });

  it.each([
    '/assets/../secret.txt',
    '/assets/%2e%2e/secret.txt',
    '/assets/%2E%2E%2Fsecret.txt',
    '/assets/..%2fsecret.txt',
    '/assets/..%5csecret.txt',
    '/assets/%2fetc%2fpasswd',
    '/assets/C:%5cwindows',
    '/assets/%00app.js',
    '/assets/%zz',
    '/api/runs/..',
    '/api/runs/%2e%2e',
    '/api/runs/..%2f..%2fsecret.txt',
    '/api/runs/..%2fsecret.txt/case?model=a&case=b',
  ])('refuses %s without touching the file system outside its roots', async (path) => {
    const res = await rawRequest(gui.url, path);
    expect(res.status).toBe(400);
    expect(res.body).not.toContain('TOP-SECRET');
  });

  it('serves nothing but known files from the static dir', async () => {
    expect((await rawRequest(gui.url, '/assets/app.js')).status).toBe(200);
    expect((await rawRequest(gui.url, '/assets//etc/passwd')).status).toBe(404);
    expect((await rawRequest(gui.url, '/assets/')).status).toBe(400);
    expect((await rawRequest(gui.url, '/secret.txt')).status).toBe(404);
    expect((await rawRequest(gui.url, '/api/runs/secret.txt')).status).toBe(404);
  });
});

describe('the key scrubber', { timeout: 20_000 }, () => {
  it('redacts a key that a provider error message would otherwise echo', async () => {
    const config = {
      providers: { leaky: { kind: 'generic' as const, base_url: `http://127.0.0.1:9/v1/${DECOY_KEY}`, api_key_env: KEY_ENV } },
      models: {},
    };
    const gui = await startGuiServer({ ...base(), config, env: { [KEY_ENV]: DECOY_KEY } });
    try {
      const res = await rawRequest(gui.url, '/api/models?refresh=1');
      expect(res.status).toBe(200);
      const provider = JSON.parse(res.body).providers[0];
      expect(provider.status).toBe('down');
      expect(provider.reason).toContain('[redacted]');
      expect(res.body).not.toContain(DECOY_KEY);
    } finally {
      await gui.close();
    }
  });

});

describe('guards as functions', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

  it('splits paths into safe segments and keeps joins inside the root', () => {
    expect(pathSegments('/assets/js/app.js')).toEqual(['assets', 'js', 'app.js']);
    expect(pathSegments('/a%20b')).toEqual(['a b']);
    expect(() => pathSegments('/a/./b')).toThrow(/traversal/);
    expect(() => pathSegments('relative')).toThrow();
    expect(insideRoot('/srv/root', ['a', 'b.js'])).toBe('/srv/root/a/b.js');
    expect(() => insideRoot('/srv/root', ['..', 'x'])).toThrow(/traversal/);
    expect(() => insideRoot('/srv/root', ['/etc/passwd'])).toThrow(/traversal/);
    expect(() => insideRoot('/srv/root', [])).toThrow(/traversal/);
  });

  it('compares tokens by digest and needs one only off loopback', () => {
    expect(tokensEqual('same-token', 'same-token')).toBe(true);
    expect(tokensEqual('same-token', 'same-token-longer')).toBe(false);
    expect(resolveToken('127.0.0.1', undefined)).toEqual({ token: null, generated: false });
    expect(resolveToken('::1', undefined).token).toBeNull();
    expect(resolveToken('127.0.0.2', undefined, () => Buffer.alloc(24, 1))).toEqual({ token: 'AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB', generated: true });
    expect(resolveToken('localhost', 'given-token-123456').token).toBe('given-token-123456');
  });

  it('reads cookies and judges origins', () => {
    expect(parseCookies('a=1; b=x%20y; a=2').get('b')).toBe('x y');
    expect(parseCookies('a=1; b=x%20y; a=2').get('a')).toBe('1');
    expect(crossOriginReason(req({ host: 'h:1', origin: 'http://h:1' }))).toBeNull();
    expect(crossOriginReason(req({ host: 'h:1', origin: 'http://h:2' }))).toMatch(/cross-origin/);
    expect(crossOriginReason(req({ host: 'h:1', 'sec-fetch-site': 'same-origin' }))).toBeNull();
    expect(crossOriginReason(req({ host: 'h:1', 'sec-fetch-site': 'none' }))).toMatch(/cross-site/);
    expect(crossOriginReason(req({ host: 'h:1' }))).toMatch(/Origin header/);
  });
});
