import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { writeTinyLlama } from '@crucibleforge/speed/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { FIXTURE_CASES_DIR, fixtureWorkspace, memoryIO, startFixtureSim } from '@crucibleforge/testkit';

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startFixtureSim();
});
afterAll(async () => sim?.close());

describe('crucibleforge status and models', () => {
  it('status: providers up or down, keys, preflight per enabled model, cases per profile', async () => {
    const ws = await fixtureWorkspace(sim.url, '  gone: { provider: dead, id: gone, enabled: false }\n');
    const { writeFile, readFile } = await import('node:fs/promises');
    const text = await readFile(ws.config, 'utf8');
    await writeFile(ws.config, text.replace('models:\n', '  dead:\n    kind: vllm\n    base_url: http://127.0.0.1:9/v1\nmodels:\n'));
    const t = memoryIO({ cwd: ws.dir, env: {} });
    // a provider down, a key not set, a preflight not possible: status says so and exits 1
    expect(await main(['status', '--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR], t.io)).toBe(1);
    const out = t.stdout();
    expect(out).toMatch(/UP {3}local \(lmstudio\)/);
    expect(out).toMatch(/DOWN dead \(vllm\) http:\/\/127\.0\.0\.1:9\/v1/);
    expect(out).toMatch(/hosted \(openrouter\).*key \$HOSTED_KEY NOT SET/);
    expect(out).toMatch(/strong → local\/strong · ctx 32768 · reasoning auto · preflight ok/);
    expect(out).toMatch(/hosted → hosted\/hosted .*preflight not possible: .*HOSTED_KEY/);
    expect(out).toMatch(/gone → dead\/gone .*\(disabled\)/);
    expect(out).toMatch(/profile test: 6 cases/);
    expect(out).toMatch(/profile quick: 2 cases/);
    expect(out).toMatch(/status: DOWN — provider dead is down; \$HOSTED_KEY is not set; preflight of hosted failed\n$/);
    const json = memoryIO({ cwd: ws.dir, env: {} });
    expect(await main(['status', '--json', '--no-preflight', '--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR], json.io)).toBe(1);
    const data = JSON.parse(json.stdout());
    expect(data).toMatchObject({ ok: false, down: ['provider dead is down', '$HOSTED_KEY is not set'], config: ws.config });
    expect(data.providers.find((p: { name: string }) => p.name === 'local')).toMatchObject({ status: 'up', kind: 'lmstudio' });
    expect(data.cases.profiles).toContainEqual(expect.objectContaining({ name: 'test', cases: 6 }));
  });

  it('status: exit 0 when everything it checks is up', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const t = memoryIO({ cwd: ws.dir, env: { HOSTED_KEY: 'sk-test-key' } });
    expect(await main(['status', '--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR], t.io)).toBe(0);
    expect(t.stdout()).toMatch(/status: everything checked is up\n$/);
    expect(t.stdout()).not.toContain('sk-test-key');
  });

  it('models: configured models marked against what the endpoint serves', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const t = memoryIO({ cwd: ws.dir });
    expect(await main(['models', '--config', ws.config], t.io)).toBe(0);
    expect(t.stdout()).toMatch(/\* strong → strong, ctx 32768/);
    expect(t.stdout()).toMatch(/ {4}weak \(not configured\)/);
    expect(t.stdout()).toMatch(/\* hosted → hosted, ctx 32768, \$1\/\$4 per M \[Q4_K_M, loaded\]/);
    const offline = memoryIO({ cwd: ws.dir });
    expect(await main(['models', '--config', ws.config, '--offline'], offline.io)).toBe(0);
    expect(offline.stdout()).not.toContain('served by its endpoint');
  });

  it('models: a local server\'s model shows its GGUF found in the LM Studio folders (size, quantisation, parameters, architecture)', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const home = await mkdtemp(join(tmpdir(), 'cf-models-home-'));
    try {
      const file = join(home, '.lmstudio', 'models', 'someone', 'weak-GGUF', 'weak-Q8_0.gguf');
      const model = await writeTinyLlama(file, { type: 'Q8_0', embedding: 32, layers: 1, heads: 2 });
      const t = memoryIO({ cwd: ws.dir, env: { HOME: home } });
      expect(await main(['models', '--config', ws.config], t.io)).toBe(0);
      const line = t.stdout().split('\n').find((l) => l.includes('weak (not configured)'))!;
      expect(line).toContain(`{GGUF ${file}: `);
      expect(line).toMatch(new RegExp(`Q8_0 · ${(model.parameters / 1e3).toFixed(0)}K params · llama\\}`));
      // The configured models the endpoint serves have no file on disk: nothing is invented for them.
      expect(t.stdout().split('\n').find((l) => l.includes('* strong'))).not.toContain('GGUF');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
