import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listRuns, loadRun } from '@crucibleforge/runner';
import { writeTinyLlama } from '@crucibleforge/speed/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { FIXTURE_CASES_DIR as FIXTURE_CASES, memoryIO } from '@crucibleforge/testkit';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cf-run-gguf-'));
  await writeTinyLlama(join(dir, 'models', 'tiny.gguf'), { type: 'F16' });
  // gguf is relative to models.yaml; the reply cap keeps the random model's gibberish short.
  await writeFile(
    join(dir, 'models.yaml'),
    `providers:
  engine:
    kind: llamacpp-inprocess
    gguf: models/tiny.gguf
    context: 1024
    threads: 1
    batch: 256
  missing:
    kind: llamacpp-inprocess
    gguf: models/absent.gguf
models:
  tiny: { provider: engine, id: tiny-llama, max_tokens: 24 }
  ghost: { provider: missing, id: ghost, max_tokens: 24 }
`,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = async (args: string[]) => {
  const t = memoryIO({ cwd: dir, env: { HOME: dir } });
  const code = await main(args, t.io);
  return { code, out: t.stdout(), err: t.stderr() };
};

describe('run on a models.yaml provider of kind llamacpp-inprocess', { timeout: 120_000 }, () => {
  it('runs a profile through the in-process engine: preflight, rows with real token counts (gibberish answers)', async () => {
    const results = join(dir, 'results');
    const r = await cli(['run', '--profile', 'quick', '--models', 'tiny', '--config', 'models.yaml', '--results', results, '--cases', FIXTURE_CASES, '--allow-unsandboxed']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/tiny: preflight ok|preflight.*tiny-llama answered|tiny-llama answered in/);
    const [run] = await listRuns(results);
    expect(run).toMatchObject({ total: 2, done: 2, complete: true });
    const rows = (await loadRun(results, run!.run_id)).rows;
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.model_id).toBe('tiny-llama');
      expect(row.usage.completion_tokens).toBeGreaterThan(0);
      expect(row.usage.completion_tokens).toBeLessThanOrEqual(24);
      expect(row.usage.prompt_tokens).toBeGreaterThan(0);
      expect(row.error_class ?? null).toBeNull();
      expect(['pass', 'fail']).toContain(row.grade.status);
    }
  });

  it('status and models show the GGUF; a missing file is named', async () => {
    const s = await cli(['status', '--config', 'models.yaml', '--no-preflight', '--cases', FIXTURE_CASES, '--results', join(dir, 'results')]);
    expect(s.out).toMatch(new RegExp(`READY engine \\(llamacpp-inprocess\\) ${join(dir, 'models', 'tiny.gguf').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · runs in this process`));
    expect(s.out).toMatch(/MISSING missing \(llamacpp-inprocess\) .*absent\.gguf · cannot read GGUF file .*absent\.gguf/);
    const m = await cli(['models', '--config', 'models.yaml']);
    expect(m.out).toMatch(/\* tiny → tiny-llama.*\[.*F16.*ctx 1024\]/);
    expect(m.out).toMatch(/GGUF not readable: cannot read GGUF file .*absent\.gguf/);
  });

  it('a run on a missing GGUF stops the model at its preflight, naming the path', async () => {
    const results = join(dir, 'results-ghost');
    const r = await cli(['run', '--profile', 'quick', '--models', 'ghost', '--config', 'models.yaml', '--results', results, '--cases', FIXTURE_CASES, '--allow-unsandboxed']);
    expect(r.code).not.toBe(0);
    expect(`${r.out}${r.err}`).toMatch(/GGUF file not found: .*absent\.gguf/);
  });
});
