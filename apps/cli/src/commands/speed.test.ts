import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimEndpoint, type SimEndpoint, type SimModelOptions } from '@crucibleforge/sim-endpoint';
import { tinyLlama } from '@crucibleforge/speed/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { memoryIO } from '@crucibleforge/testkit';

const open: SimEndpoint[] = [];
async function sim(models: SimModelOptions[], apiKey?: string): Promise<SimEndpoint> {
  const s = await startSimEndpoint({ models, ...(apiKey ? { api_key: apiKey } : {}) });
  open.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cf-speed-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// 200 T/s: slow enough that the tokens arrive in several reads on a loaded machine (a burst in one read has no decode speed)
const fast = {
  decode_tps: 200,
  first_token_base_ms: 5,
  answer: { reasoning: 'think a little first', content: 'one two three four five six seven eight nine ten' },
};

async function speed(args: string[], env: Record<string, string> = {}) {
  const { io, stdout, stderr } = memoryIO({ env, cwd: dir });
  const code = await main(['speed', ...args], io);
  return { code, out: stdout(), err: stderr() };
}

describe('crucibleforge speed', () => {
  it('finds a local Ollama model\'s GGUF (manifest → blob under OLLAMA_MODELS) and holds it to the host roofline', async () => {
    const s = await sim([{ id: 'tinyllama:latest', ...fast, decode_tps: 100 }]);
    const store = join(dir, 'ollama-store');
    const model = tinyLlama({ type: 'Q8_0', embedding: 32, layers: 1, heads: 2 });
    const hex = createHash('sha256').update(model.bytes).digest('hex');
    const blob = join(store, 'blobs', `sha256-${hex}`);
    await mkdir(join(store, 'blobs'), { recursive: true });
    await writeFile(blob, model.bytes);
    await mkdir(join(store, 'manifests', 'registry.ollama.ai', 'library', 'tinyllama'), { recursive: true });
    await writeFile(
      join(store, 'manifests', 'registry.ollama.ai', 'library', 'tinyllama', 'latest'),
      JSON.stringify({ schemaVersion: 2, layers: [{ mediaType: 'application/vnd.ollama.image.model', digest: `sha256:${hex}`, size: model.bytes.length }] }),
    );
    const { code, out, err } = await speed(
      ['tinyllama:latest', '--base-url', s.url, '--provider', 'ollama', '--runs', '1', '--warmup', '0', '--prompts', 'short', '--out', 'ollama.json'],
      { HOME: dir, OLLAMA_MODELS: store },
    );
    expect(code).toBe(0);
    expect(err).toContain(`found the model's GGUF: ${blob}`);
    expect(err).toMatch(/Q8_0 · \d+K params · llama/);
    expect(err).toMatch(/host memory bandwidth \d+\.\d GB\/s/);
    const report = JSON.parse(await readFile(join(dir, 'ollama.json'), 'utf8'));
    expect(report.gguf).toMatchObject({ quantization: 'Q8_0', architecture: 'llama', parameter_count: model.parameters });
    expect(report.plausibility).toMatchObject({ bandwidth_source: 'measured', weights_source: 'gguf' });
    expect(report.plausibility.confidence).not.toBe('UNKNOWN');
    expect(out).toMatch(/measured on this host ÷/);
  });

  it('prints an aligned table with formulas and writes the JSON contract', async () => {
    const s = await sim([{ id: 'llama-3.1-8b-q4_k_m', ...fast }]);
    const { code, out } = await speed([
      'llama-3.1-8b-q4_k_m',
      '--base-url', s.url,
      '--runs', '2',
      '--warmup', '1',
      '--prompts', 'short,medium,long',
      '--gpu', 'RTX 4090',
      '--out', 'speed.json',
    ]);
    expect(code).toBe(0);
    expect(out).toMatch(/^short_50 +TTFT \(s\) +2 +\d/m);
    expect(out).toMatch(/^ +decode \(T\/s\) +2 +\d/m);
    // 2000 T/s from an 8B Q4_K_M (≈4.6 GB per token) is far above a 4090's roofline (≈195 T/s).
    expect(out).toMatch(/plausibility: SUSPICIOUS/);
    expect(out).toMatch(/decode +\(N_out − N_first\)/);
    const report = JSON.parse(await readFile(join(dir, 'speed.json'), 'utf8'));
    expect(report.tests.map((t: { name: string }) => t.name)).toEqual(['short_50', 'medium_200', 'long_800']);
    for (const test of report.tests) {
      expect(test.runs).toHaveLength(2);
      expect(Object.keys(test.median).sort()).toEqual(['decode_tps', 'e2e_s', 'prefill_tps', 'ttft_content_s', 'ttft_reasoning_s', 'ttft_s']);
      for (const [k, value] of Object.entries(test.median)) expect([k, typeof value]).toEqual([k, 'number']);
      expect(test.runs[0]).toMatchObject({ ok: true, token_source: 'usage' });
      expect(test.runs[0].ttft_content_s).toBeGreaterThanOrEqual(test.runs[0].ttft_reasoning_s);
    }
    expect(report.plausibility.confidence).toBe('SUSPICIOUS');
    expect(Array.isArray(report.plausibility.reasons)).toBe(true);
    expect(typeof report.formulas.decode_tps).toBe('string');
    // 3 prompts × (1 warm-up + 2 runs)
    expect(s.requests).toHaveLength(9);
    // --json: the same contract on stdout, and nothing else there
    const printed = await speed(['llama-3.1-8b-q4_k_m', '--base-url', s.url, '--runs', '1', '--warmup', '0', '--prompts', 'short', '--json']);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.out).tests.map((t: { name: string }) => t.name)).toEqual(['short_50']);
  });

  it('reads the key only from the named variable and never shows it', async () => {
    const s = await sim([{ id: 'm', ...fast }], 'sk-secret-123');
    const ok = await speed(['m', '--base-url', s.url, '--api-key-env', 'SIM_KEY', '--runs', '1', '--warmup', '0', '--prompts', 'short', '--out', 'k.json'], { SIM_KEY: 'sk-secret-123' });
    expect(ok.code).toBe(0);
    const json = await readFile(join(dir, 'k.json'), 'utf8');
    for (const text of [ok.out, ok.err, json]) expect(text).not.toContain('sk-secret-123');
    const bad = await speed(['m', '--base-url', s.url, '--api-key-env', 'SIM_KEY', '--prompts', 'short'], { SIM_KEY: 'sk-wrong-456' });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('key rejected, set SIM_KEY');
    expect(bad.err + bad.out).not.toContain('sk-wrong-456');
    const none = await speed(['m', '--base-url', s.url, '--prompts', 'short']);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/key rejected.*--api-key-env/);
  });

  it('names the unreachable URL', async () => {
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    await new Promise((done) => server.close(done));
    const url = `http://127.0.0.1:${port}/v1`;
    const { code, err } = await speed(['m', '--base-url', url, '--connect-timeout', '2']);
    expect(code).toBe(1);
    expect(err).toContain('TIMING_UNREACHABLE');
    expect(err).toContain(url);
  });

  it('lists the models the endpoint has when the model is unknown', async () => {
    const s = await sim([{ id: 'alpha' }, { id: 'beta' }]);
    const { code, err } = await speed(['gamma', '--base-url', s.url]);
    expect(code).toBe(1);
    expect(err).toMatch(/TIMING_UNKNOWN_MODEL.*alpha, beta/);
  });

  it('names the content type of a non-SSE reply', async () => {
    const s = await sim([{ id: 'm', faults: [{ kind: 'not_sse' }] }]);
    const { code, err } = await speed(['m', '--base-url', s.url]);
    expect(code).toBe(1);
    expect(err).toMatch(/TIMING_NOT_SSE.*text\/html/);
  });

  it('reports a stall as a typed timeout with partial timings, and exits 1', async () => {
    const s = await sim([{ id: 'm', ...fast, faults: [{ kind: 'stall', after_tokens: 3, stall_ms: 2000 }] }]);
    const { code, out, err } = await speed(['m', '--base-url', s.url, '--runs', '2', '--warmup', '0', '--prompts', 'short', '--gap-timeout', '0.2', '--out', 'stall.json']);
    expect(code).toBe(1);
    expect(err).toMatch(/TIMING_GAP_TIMEOUT/);
    const report = JSON.parse(await readFile(join(dir, 'stall.json'), 'utf8'));
    const failed = report.tests[0].runs[0];
    expect(failed).toMatchObject({ ok: false, error: { code: 'TIMING_GAP_TIMEOUT' } });
    expect(failed.partial.token_events).toBe(3);
    expect(report.tests[0].runs[1].ok).toBe(true);
    expect(out).toMatch(/failed: 1/);
  });

  it('exits 1 when the endpoint answers as another model', async () => {
    const s = await sim([{ id: 'm', respond_as: 'n', ...fast }]);
    const { code, out } = await speed(['m', '--base-url', s.url, '--runs', '1', '--warmup', '0', '--prompts', 'short']);
    expect(code).toBe(1);
    expect(out).toMatch(/answered as "n" instead of "m"/);
  });

  it('rejects bad usage with exit 2, naming the flag', async () => {
    const cases: [string[], RegExp][] = [
      [[], /name the model/],
      [['m'], /--base-url is required/],
      [['m', '--base-url', 'localhost:1234'], /--base-url must be an http/],
      [['m', '--base-url', 'http://x/v1', '--runs', '0'], /--runs must be an integer/],
      [['m', '--base-url', 'http://x/v1', '--prompts', 'short,huge'], /--prompts must be one of short, medium, long, got "huge"/],
      [['m', '--base-url', 'http://x/v1', '--concurrency', '1,two'], /--concurrency: "two"/],
      [['m', '--base-url', 'http://x/v1', '--depths', '1k,-4'], /--depths: "-4"/],
      [['m', '--base-url', 'http://x/v1', '--api-key-env', 'NOPE_KEY'], /--api-key-env NOPE_KEY: that environment variable is not set/],
      [['m', '--base-url', 'http://x/v1', '--bandwidth-gbs', 'fast'], /--bandwidth-gbs must be a positive number/],
      [['m', '--base-url', 'http://x/v1', '--provider', 'foo'], /--provider must be one of/],
      [['m', '--base-url', 'http://x/v1', '--gguf', 'missing.gguf'], /--gguf: .*missing\.gguf/],
      [['m', '--base-url', 'http://x/v1', '--bogus'], /bogus/],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await speed(args);
      expect(code, args.join(' ')).toBe(2);
      expect(err, args.join(' ')).toMatch(message);
    }
  });
});
