import { describe, expect, it } from 'vitest';
import { parseConfig } from './config';
import { exampleConfig } from './config-example';
import { importOpenClaw } from './openclaw';

const OPENCLAW = `// OpenClaw gateway config (JSON5: comments, trailing commas, unquoted keys)
{
  agents: { defaults: { model: { primary: "deepseek/deepseek-chat" } } },
  models: {
    mode: "merge",
    providers: {
      deepseek: {
        baseUrl: "https://api.deepseek.com/v1",
        apiKey: "\${DEEPSEEK_API_KEY}",
        api: "openai-completions",
        models: [
          { id: "deepseek-chat", name: "DeepSeek chat", reasoning: false, input: ["text"],
            cost: { input: 0.28, output: 0.42, cacheRead: 0.028, cacheWrite: 0 },
            contextWindow: 131072, maxTokens: 8192 },
          { id: "deepseek-reasoner", reasoning: true, contextWindow: 65536 },
          { id: "deepseek-vision", input: ["image"] },
        ],
      },
      mystery: {
        baseUrl: "https://llm.example.com/v1",
        apiKey: "sk-live-SECRET-1234567890",
        models: [{ id: "acme/model-x", cost: { input: 1, output: 2 } }],
      },
      claude: { baseUrl: "https://api.anthropic.com", api: "anthropic-messages", models: [{ id: "c" }] },
      "home-lmstudio": { baseUrl: "http://127.0.0.1:1234/v1", apiKey: "lm-studio",
                         models: [{ id: "qwen/qwen3-8b", contextWindow: 32768 }] },
    },
  },
}
`;

describe('importOpenClaw', () => {
  it('imports providers and models, never copying a literal key, models disabled', () => {
    const result = importOpenClaw(OPENCLAW, { source: '~/.openclaw/openclaw.json' });
    expect(result.text).not.toContain('SECRET');
    expect(result.providers.map((p) => [p.name, p.kind, p.api_key_env])).toEqual([
      ['deepseek', 'deepseek', 'DEEPSEEK_API_KEY'],
      ['mystery', 'generic', 'MYSTERY_API_KEY'],
      ['home-lmstudio', 'lmstudio', null],
    ]);
    expect(result.keysToSet).toEqual([{ variable: 'MYSTERY_API_KEY', provider: 'mystery' }]);
    expect(result.skipped.map((s) => s.what)).toEqual(['model deepseek/deepseek-vision', 'provider claude']);
    const config = parseConfig(result.text, 'models.yaml');
    expect(config.models['deepseek-deepseek-chat']).toMatchObject({
      provider: 'deepseek',
      id: 'deepseek-chat',
      context_length: 131072,
      max_tokens: 8192,
      enabled: false,
      prices: { input: 0.28, cached_input: 0.028, output: 0.42 },
    });
    expect(config.models['deepseek-deepseek-reasoner']).toMatchObject({ reasoning: 'on', enabled: false });
    expect(config.models['mystery-model-x']).toMatchObject({ id: 'acme/model-x', prices: { input: 1, output: 2 } });
    expect(Object.values(config.models).every((m) => !m.enabled)).toBe(true);
    expect(config.providers['mystery']).toMatchObject({ api_key_env: 'MYSTERY_API_KEY', concurrency: 4 });
  });

  it('merges into an existing file, keeping its content and comments', () => {
    const existing = exampleConfig();
    const result = importOpenClaw(OPENCLAW, { source: 'oc.json', existing });
    expect(result.text).toContain('# CrucibleForge models.yaml — which endpoints and models to benchmark.');
    expect(result.text).toContain('#   kind: openrouter');
    const config = parseConfig(result.text, 'models.yaml');
    expect(config.models['qwen3-8b']).toMatchObject({ enabled: true, provider: 'lmstudio' });
    expect(config.models['deepseek-deepseek-chat']?.enabled).toBe(false);
    // running the import again adds nothing twice
    const again = importOpenClaw(OPENCLAW, { source: 'oc.json', existing: result.text });
    expect(again.models).toEqual([]);
    expect(again.providers).toEqual([]);
    expect(again.skipped.filter((s) => s.reason === 'already configured')).toHaveLength(4);
  });

  it('renames a provider whose name clashes with a different base URL', () => {
    const existing = 'providers:\n  deepseek:\n    kind: generic\n    base_url: http://other.example/v1\n';
    const result = importOpenClaw(OPENCLAW, { source: 'oc.json', existing });
    expect(result.providers[0]?.name).toBe('oc-deepseek');
    expect(parseConfig(result.text).models['oc-deepseek-deepseek-chat']?.provider).toBe('oc-deepseek');
  });

  it('reads SecretRef keys and explains bad input', () => {
    const text = '{ models: { providers: { p: { baseUrl: "https://x.example/v1", apiKey: { source: "env", provider: "default", id: "X_KEY" }, models: [] } } } }';
    expect(importOpenClaw(text, { source: 'a.json' }).providers[0]?.api_key_env).toBe('X_KEY');
    expect(() => importOpenClaw('{ nope', { source: 'a.json' })).toThrow(/a\.json: not valid JSON5/);
    expect(() => importOpenClaw('{ agents: {} }', { source: 'a.json' })).toThrow(/no models.providers/);
  });
});
