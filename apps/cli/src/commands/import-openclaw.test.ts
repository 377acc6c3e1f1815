import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../main';
import { memoryIO } from '@crucibleforge/testkit';

const OPENCLAW = `{
  // JSON5, as OpenClaw writes it
  models: {
    providers: {
      deepseek: { baseUrl: "https://api.deepseek.com/v1", apiKey: "\${DEEPSEEK_API_KEY}",
        models: [{ id: "deepseek-chat", cost: { input: 0.28, output: 0.42, cacheRead: 0.028 }, contextWindow: 131072 }] },
      acme: { baseUrl: "https://llm.acme.example/v1", apiKey: "sk-acme-LITERAL-SECRET",
        models: [{ id: "acme/large", reasoning: true }], },
    },
  },
}`;

describe('crucibleforge import-openclaw', () => {
  it('reads ~/.openclaw/openclaw.json and merges into the config in use, keeping its comments', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-oc-'));
    const home = join(dir, 'home');
    await mkdir(join(home, '.openclaw'), { recursive: true });
    await writeFile(join(home, '.openclaw', 'openclaw.json'), OPENCLAW);
    const init = memoryIO({ cwd: dir });
    expect(await main(['config', '--init'], init.io)).toBe(0);
    const t = memoryIO({ cwd: dir, env: { HOME: home } });
    expect(await main(['import-openclaw'], t.io)).toBe(0);
    const out = t.stdout();
    expect(out).toContain('+ provider deepseek (deepseek, https://api.deepseek.com/v1, key from $DEEPSEEK_API_KEY)');
    expect(out).toContain('+ model deepseek-deepseek-chat (deepseek/deepseek-chat, disabled)');
    expect(out).toMatch(/literal API key for "acme"; it was not copied\. Set it in the environment: export ACME_API_KEY=\.\.\./);
    expect(out).toContain(`updated ${join(dir, 'models.yaml')}`);
    const text = await readFile(join(dir, 'models.yaml'), 'utf8');
    expect(text).not.toContain('LITERAL-SECRET');
    expect(text).toContain('# CrucibleForge models.yaml');
    expect(text).toMatch(/acme-large:[\s\S]*reasoning: on[\s\S]*enabled: false/);
    const check = memoryIO({ cwd: dir });
    expect(await main(['config'], check.io)).toBe(0);
    expect(check.stdout()).toMatch(/3 providers, 3 models \(1 enabled\)/);
  });

  it('creates the config when there is none; --dry-run writes nothing; a missing file is exit 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-oc-'));
    await writeFile(join(dir, 'oc.json5'), OPENCLAW);
    const dry = memoryIO({ cwd: dir, env: {} });
    expect(await main(['import-openclaw', 'oc.json5', '--dry-run'], dry.io)).toBe(0);
    await expect(readFile(join(dir, 'models.yaml'), 'utf8')).rejects.toThrow();
    const t = memoryIO({ cwd: dir, env: { OPENCLAW_CONFIG_PATH: join(dir, 'oc.json5') } });
    expect(await main(['import-openclaw'], t.io)).toBe(0);
    expect(t.stdout()).toContain(`created ${join(dir, 'models.yaml')}`);
    const missing = memoryIO({ cwd: dir, env: {} });
    expect(await main(['import-openclaw', 'nope.json'], missing.io)).toBe(2);
    expect(missing.stderr()).toMatch(/nope\.json does not exist/);
  });
});
