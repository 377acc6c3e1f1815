import { describe, expect, it } from 'vitest';
import { depthPrompt, makeNonce, parseCount, SPEED_PROMPTS, withNonce } from './prompts';

describe('speed prompts', () => {
  it('are about 50, 200 and 800 characters with the nonce first', () => {
    const targets = { short_50: 50, medium_200: 200, long_800: 800 };
    for (const prompt of SPEED_PROMPTS) {
      const text = withNonce(prompt.text, makeNonce());
      const target = targets[prompt.name];
      expect(Math.abs(text.length - target) / target, prompt.name).toBeLessThanOrEqual(0.1);
      expect(text).toMatch(/^\[[0-9a-f]{8}\] /);
    }
  });

  it('draws a different nonce each time from the injected random source', () => {
    let i = 0;
    const counter = () => ((i++ % 16) + 0.5) / 16;
    expect(makeNonce(counter)).toBe('01234567');
    expect(makeNonce(counter)).toBe('89abcdef');
    expect(makeNonce()).not.toBe(makeNonce());
  });

  it('builds depth prompts of about 4 characters per requested token', () => {
    for (const tokens of [1024, 4096]) {
      const text = depthPrompt(tokens, 'deadbeef');
      expect(text.startsWith('[deadbeef] ')).toBe(true);
      expect(Math.abs(text.length / 4 - tokens)).toBeLessThan(2);
    }
  });

  it('parses sweep counts with k suffixes and rejects junk', () => {
    expect(['1k', '4K', '16k', '512'].map(parseCount)).toEqual([1024, 4096, 16384, 512]);
    expect(['0', '-1', 'abc', '1.5'].map(parseCount)).toEqual([null, null, null, null]);
  });
});
