import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyLlama } from '@crucibleforge/speed/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANDWIDTH_FILE } from '@crucibleforge/speed';
import { main } from '../main';
import { memoryIO } from '@crucibleforge/testkit';

let home: string;
let gguf: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'cf-speed-gguf-'));
  gguf = (await writeTinyLlama(join(home, 'models', 'tiny-q8.gguf'), { type: 'Q8_0' })).path;
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

async function cli(args: string[]) {
  const { io, stdout, stderr } = memoryIO({ env: { HOME: home }, cwd: home });
  const code = await main(args, io);
  return { code, out: stdout(), err: stderr() };
}

describe('a GGUF measured in process, no server', { timeout: 60_000 }, () => {
  it('speed --gguf: engine timings, the host roofline (never UNKNOWN), llama-bench pp/tg, the JSON report', async () => {
    const json = join(home, 'speed.json');
    const r = await cli(['speed', '--gguf', 'models/tiny-q8.gguf', '--threads', '1', '--ctx-size', '1024', '--runs', '1', '--warmup', '0', '--prompts', 'short', '--max-tokens', '24', '--pp', '32', '--tg', '8', '--repetitions', '2', '--out', json]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/in-process engine: node-llama-cpp 3\.21\.1 .* context 1024 · 1 thread/);
    expect(r.err).toMatch(/host memory bandwidth \d+\.\d GB\/s \(STREAM-like copy/);
    expect(r.out).toContain(`speed of tiny-q8 at in-process:${gguf}`);
    expect(r.out).toMatch(/plausibility: (HIGH|MEDIUM|LOW|SUSPICIOUS)\n/);
    expect(r.out).toMatch(/measured on this host ÷/);
    expect(r.out).toMatch(/llama-bench style: tiny-q8 on node-llama-cpp 3.21.1 .*, 2 repetitions after a warm-up/);
    expect(r.out).toMatch(/\| +pp32 \| +\d+\.\d\d ± \d+\.\d\d \|/);
    expect(r.out).toMatch(/\| +tg8 \| +\d+\.\d\d ± \d+\.\d\d \|/);
    const report = JSON.parse(await readFile(json, 'utf8'));
    expect(report.engine).toMatchObject({ model: 'tiny-q8', threads: 1, context_size: 1024 });
    expect(report.gguf).toMatchObject({ quantization: 'Q8_0', architecture: 'llama' });
    expect(report.plausibility).toMatchObject({ bandwidth_source: 'measured', weights_source: 'gguf' });
    expect(report.plausibility.confidence).not.toBe('UNKNOWN');
    expect(report.plausibility.kv_bytes_per_token).toBeGreaterThan(0);
    // This tiny model fits any last-level cache sysfs reports: above the DRAM roofline would not be impossible.
    expect(typeof report.plausibility.cache_resident).toBe('boolean');
    // The formulas describe the engine's own events, not an HTTP stream.
    expect(report.formulas.ttft_s).toMatch(/first token the engine generates/);
    expect(r.out).not.toMatch(/SSE|handed to fetch/);
    const run = report.tests[0].runs[0];
    expect(run).toMatchObject({ ok: true, completion_tokens: 24, token_source: 'usage', served_model: 'tiny-q8' });
    expect(run.ttft_s).toBeGreaterThan(0);
    expect(run.decode_tps).toBeGreaterThan(0);
    expect(report.pp_tg.tests.map((t: { test: string }) => t.test)).toEqual(['pp32', 'tg8']);
    // The probe was cached: the next run reads it.
    const cached = JSON.parse(await readFile(join(home, '.cache', 'crucibleforge', BANDWIDTH_FILE), 'utf8'));
    expect(cached.bandwidth_gbs).toBeGreaterThan(0);
    // --json: stdout is the report alone (engine included), the tables a person reads go to stderr
    const again = await cli(['speed', '--gguf', gguf, '--threads', '1', '--runs', '1', '--warmup', '0', '--prompts', 'short', '--max-tokens', '4', '--pp', '0', '--tg', '0', '--json']);
    expect(again.code).toBe(0);
    expect(again.err).toMatch(/host memory bandwidth .*cached \d{4}-\d\d-\d\d/);
    expect(again.err).toContain('speed of tiny-q8 at in-process:');
    expect(again.err).not.toContain('llama-bench style');
    expect(JSON.parse(again.out)).toMatchObject({ engine: { model: 'tiny-q8', threads: 1 }, pp_tg: null });
  });

  it('bench-llm --gguf --speed-only works with no server', async () => {
    const r = await cli(['bench-llm', '--gguf', gguf, '--speed-only', '--quick', '--threads', '1', '--out', join(home, 'bench')]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Benchmarking: tiny-q8');
    expect(r.out).toMatch(/in-process engine: node-llama-cpp/);
    expect(r.out).toMatch(/Confidence: (HIGH|MEDIUM|LOW|SUSPICIOUS)/);
    expect(r.out).not.toContain('ABILITY');
  });

  it('a missing GGUF is a usage error naming the path; engine flags need --gguf', async () => {
    const missing = join(home, 'nope', 'absent.gguf');
    const r = await cli(['speed', '--gguf', missing]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(missing);
    const b = await cli(['bench-llm', '--gguf', missing, '--speed-only']);
    expect(b.code).toBe(2);
    expect(b.err).toContain(missing);
    const flags = await cli(['speed', 'm', '--base-url', 'http://127.0.0.1:9/v1', '--threads', '2']);
    expect(flags.code).toBe(2);
    expect(flags.err).toMatch(/--threads.*in process/);
  });
});
