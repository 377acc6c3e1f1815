import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { FIXTURE_CASES_DIR, fixtureWorkspace, memoryIO, startFixtureSim } from '@crucibleforge/testkit';

const KEY = 'LEAKME-0123456789abcdef';

/**
 * A provider that passes its first `healthy` requests to the sim (so the preflight passes), then answers
 * every request 400 with the Authorization header it got in the error text: a server echoing the key back.
 */
async function echoingProvider(sim: SimEndpoint, healthy: number): Promise<{ url: string; server: Server; seen: () => number }> {
  let count = 0;
  const target = new URL(sim.url).origin;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    count += 1;
    if (count > healthy) {
      res.writeHead(400, { 'content-type': 'application/json' });
      const auth = req.headers.authorization ?? '';
      const key = auth.replace(/^Bearer /, '');
      // the key as is, and in the encodings a proxy or a logging layer might echo it in
      const forms = `b64 ${Buffer.from(auth).toString('base64')} b64url ${Buffer.from(key).toString('base64url')} upper ${key.toUpperCase()} url ${encodeURIComponent(key)}`;
      res.end(JSON.stringify({ error: { message: `bad request for key ${auth} (${forms})` } }));
      return;
    }
    const upstream = await fetch(target + (req.url ?? '/'), {
      method: req.method ?? 'GET',
      headers: { 'content-type': 'application/json' },
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${new URL(sim.url).pathname}`, server, seen: () => count };
}

async function allFiles(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const texts = await Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name), 'utf8')));
  return texts.join('\n');
}

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startFixtureSim();
});
afterAll(async () => sim?.close());

describe('an endpoint that echoes the API key in its errors', () => {
  it('never puts the key in rows.jsonl, speed.json, events, stdout/stderr or the report', { timeout: 30_000 }, async () => {
    const provider = await echoingProvider(sim, 1);
    try {
      const ws = await fixtureWorkspace(provider.url);
      const common = ['--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR];
      const t = memoryIO({ cwd: ws.dir, env: { HOSTED_KEY: KEY } });
      const code = await main(['run', '--profile', 'test', '--models', 'hosted', '--yes', '--allow-unsandboxed', ...common], t.io);
      expect(code).toBe(1);
      expect(provider.seen()).toBeGreaterThan(1);
      const rows = await allFiles(ws.results);
      // The server's text is kept, only the key is gone.
      expect(rows).toContain('bad request for key Bearer [redacted]');
      expect(rows).toContain('"kind":"model-stopped"');
      expect(t.stdout()).toContain('[redacted]');
      const r = memoryIO({ cwd: ws.dir, env: { HOSTED_KEY: KEY } });
      await main(['report', '--latest', '--results', ws.results, '--format', 'md,json,html'], r.io);
      const s = memoryIO({ cwd: ws.dir, env: { HOSTED_KEY: KEY } });
      await main(['status', '--config', ws.config, '--results', ws.results], s.io);
      const everything = [t.stdout(), t.stderr(), r.stdout(), r.stderr(), s.stdout(), s.stderr(), await allFiles(ws.results)].join('\n');
      expect(everything.toLowerCase()).not.toContain(KEY.toLowerCase());
      expect(everything).not.toContain(Buffer.from(`Bearer ${KEY}`).toString('base64').slice(10, -2));
      expect(everything).not.toContain(Buffer.from(KEY).toString('base64url').slice(0, -2));
      expect(rows).toContain('upper [redacted] url [redacted]');
    } finally {
      provider.server.close();
    }
  });

  it('bench-llm keeps the key out of its output and its results JSON', async () => {
    const provider = await echoingProvider(sim, 2);
    try {
      const ws = await fixtureWorkspace(provider.url);
      const json = join(ws.dir, 'bench.json');
      const t = memoryIO({ cwd: ws.dir, env: { HOSTED_KEY: KEY, HOME: ws.dir } });
      const code = await main(['bench-llm', 'strong', '--base-url', provider.url, '--api-key-env', 'HOSTED_KEY', '--quick', '--allow-unsandboxed', '--out', json], t.io);
      expect(code).toBe(1);
      const saved = await readFile(json, 'utf8');
      expect(saved + t.stdout() + t.stderr()).toContain('Bearer [redacted]');
      expect([t.stdout(), t.stderr(), saved].join('\n')).not.toContain(KEY);
    } finally {
      provider.server.close();
    }
  });
});
