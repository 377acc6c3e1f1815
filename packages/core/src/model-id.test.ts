import { describe, expect, it } from 'vitest';
import { sameModel, servedModelMatches } from './index';

describe('sameModel', () => {
  it('tolerates case, vendor prefixes and paths, .gguf, :latest and dated snapshots', () => {
    for (const [a, b] of [
      ['qwen3-32b', '  QWEN3-32B '],
      ['qwen/qwen3-32b', 'openrouter/qwen/qwen3-32b'],
      ['qwen3-8b', '/models/qwen3-8b.gguf'],
      ['llama3.1', 'llama3.1:latest'],
      ['gpt-4o', 'gpt-4o-2024-08-06'],
      ['claude-x', 'claude-x-20250101'],
    ]) expect(sameModel(a!, b!)).toBe(true);
  });
  it('does not confuse different models that share a prefix, nor empty ids', () => {
    expect(sameModel('qwen3-32b', 'qwen3-32b-instruct')).toBe(false);
    expect(sameModel('org/model', 'org/')).toBe(false);
    expect(sameModel('a/', 'b/')).toBe(false);
    expect(sameModel('', '')).toBe(false);
    expect(sameModel('qwen3-8b', 'qwen3-14b')).toBe(false);
  });
});

describe('servedModelMatches', () => {
  it('strict allows only decorations; prefix also an aliased longer id', () => {
    expect(servedModelMatches('strict', 'vendor/x', 'vendor/x-v2')).toBe(false);
    expect(servedModelMatches('prefix', 'vendor/x', 'vendor/x-v2')).toBe(true);
    expect(servedModelMatches('prefix', 'x', 'y')).toBe(false);
    expect(servedModelMatches('strict', 'gpt-4o', 'gpt-4o-2024-08-06')).toBe(true);
  });
});
