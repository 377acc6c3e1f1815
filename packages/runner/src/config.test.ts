import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrucibleError } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { apiKeyFor, loadConfig, parseConfig, resolveConfigPath, resolveModel, selectModels } from './config';
import { exampleConfig } from './config-example';
import type { ConfigIssue } from './errors';

const GOOD = `providers:
  local:
    kind: lmstudio
    base_url: http://localhost:1234/v1
  hosted:
    kind: openrouter
    base_url: https://openrouter.ai/api/v1
    api_key_env: OPENROUTER_API_KEY
    concurrency: 8
    prices: { input: 1, cached_input: 0.1, output: 2 }
models:
  small:
    provider: local
    id: qwen/qwen3-8b
    context_length: 32768
  big:
    provider: hosted
    id: vendor/big
    enabled: false
    prices: { input: 3, output: 6 }
judge:
  model: small
`;

function issuesOf(fn: () => unknown): ConfigIssue[] {
  try {
    fn();
  } catch (error) {
    expect(CrucibleError.isInstance(error)).toBe(true);
    const e = error as CrucibleError;
    expect(e.code).toBe('RUNNER_CONFIG_INVALID');
    return e.details['issues'] as ConfigIssue[];
  }
  throw new Error('expected a config error');
}

describe('parseConfig', () => {
  it('accepts a valid file and applies defaults', () => {
    const config = parseConfig(GOOD, '/x/models.yaml');
    expect(config.models['small']).toMatchObject({ reasoning: 'auto', enabled: true, reasoning_factor: 4, temperature: 0 });
    expect(config.judge).toEqual({ model: 'small', samples: 1 });
    const small = resolveModel(config, 'small');
    expect(small).toMatchObject({ local: true, concurrency: 1, prices: null, providerName: 'local' });
    const big = resolveModel(config, 'big');
    expect(big).toMatchObject({ local: false, concurrency: 8, prices: { input: 3, output: 6 } });
  });

  it('names file, line and field for a bad enum value', () => {
    const text = GOOD.replace('    context_length: 32768\n', '    context_length: 32768\n    reasoning: maybe\n');
    const [issue] = issuesOf(() => parseConfig(text, '/cfg/models.yaml'));
    expect(issue).toMatchObject({ file: '/cfg/models.yaml', line: 16, field: 'models.small.reasoning' });
  });

  it('names the line of an unknown (misspelled) field', () => {
    const text = GOOD.replace('base_url: http://localhost', 'base_ur: http://localhost');
    const issues = issuesOf(() => parseConfig(text, 'm.yaml'));
    const fields = issues.map((i) => i.field);
    expect(fields).toContain('providers.local.base_ur');
    expect(issues.find((i) => i.field === 'providers.local.base_ur')?.line).toBe(4);
    expect(fields).toContain('providers.local.base_url'); // and the missing required one, at its parent
  });

  it('rejects an API key pasted into api_key_env', () => {
    const text = GOOD.replace('api_key_env: OPENROUTER_API_KEY', 'api_key_env: sk-or-v1-abc');
    const [issue] = issuesOf(() => parseConfig(text, 'm.yaml'));
    expect(issue).toMatchObject({ field: 'providers.hosted.api_key_env', line: 8 });
    expect(issue!.message).toMatch(/environment variable name/);
  });

  it('reports YAML syntax errors with a line', () => {
    const [issue] = issuesOf(() => parseConfig('providers:\n  a: [1, 2\n  b: x\n', 'bad.yaml'));
    expect(issue!.line).toBeGreaterThanOrEqual(2);
    expect(issue!.message).toMatch(/YAML syntax/);
  });

  it('checks that models name known providers and the judge a known model', () => {
    const text = GOOD.replace('provider: local', 'provider: nowhere').replace('model: small', 'model: ghost');
    const issues = issuesOf(() => parseConfig(text, 'm.yaml'));
    expect(issues.map((i) => [i.field, i.line])).toEqual([
      ['models.small.provider', 13],
      ['judge.model', 22],
    ]);
    expect(issues[0]!.message).toContain('known: local, hosted');
  });

  it('the example written by config --init is itself valid, with LM Studio enabled', () => {
    const config = parseConfig(exampleConfig(), 'example.yaml');
    expect(Object.keys(config.providers)).toEqual(['lmstudio']);
    expect(config.providers['lmstudio']?.base_url).toBe('http://localhost:1234/v1');
    expect(selectModels(config, ['all'])).toEqual(['qwen3-8b']);
    for (const kind of ['ollama', 'llamacpp', 'vllm', 'openrouter', 'deepseek']) expect(exampleConfig()).toContain(`#   kind: ${kind}`);
  });
});

describe('models and keys', () => {
  const config = parseConfig(GOOD, 'm.yaml');
  it('all = enabled models; unknown labels list the configured ones', () => {
    expect(selectModels(config, ['all'])).toEqual(['small']);
    expect(() => selectModels(config, ['small', 'nope'])).toThrow(/unknown model "nope".*small, big/);
  });
  it('a missing key names the variable', () => {
    const big = resolveModel(config, 'big');
    expect(() => apiKeyFor(big, {})).toThrow(/set the environment variable OPENROUTER_API_KEY/);
    expect(apiKeyFor(big, { OPENROUTER_API_KEY: 'k' })).toBe('k');
    expect(apiKeyFor(resolveModel(config, 'small'), {})).toBeUndefined();
  });
});

describe('discovery', () => {
  it('flag, then env, then ./models.yaml, then the user config dir', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cf-cfg-'));
    const cwd = join(root, 'cwd');
    const user = join(root, 'user');
    await import('node:fs/promises').then((fs) => Promise.all([fs.mkdir(cwd), fs.mkdir(user)]));
    await writeFile(join(user, 'models.yaml'), GOOD);
    expect((await resolveConfigPath({ cwd, userConfigDir: user })).path).toBe(join(user, 'models.yaml'));
    await writeFile(join(cwd, 'models.yaml'), GOOD);
    expect((await resolveConfigPath({ cwd, userConfigDir: user })).path).toBe(join(cwd, 'models.yaml'));
    expect((await resolveConfigPath({ cwd, envPath: '/e.yaml', userConfigDir: user })).path).toBe('/e.yaml');
    expect((await resolveConfigPath({ cwd, flag: '/f.yaml', envPath: '/e.yaml' })).path).toBe('/f.yaml');
    expect((await resolveConfigPath({ cwd: join(root, 'none') })).path).toBeNull();
    await expect(loadConfig(join(root, 'missing.yaml'))).rejects.toThrow(/cannot read configuration .*missing\.yaml/);
  });
});
