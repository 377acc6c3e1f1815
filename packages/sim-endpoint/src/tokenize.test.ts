import { describe, expect, it } from 'vitest';
import { countPromptTokens, simTokenize } from './tokenize';

describe('simTokenize', () => {
  it('cuts words (with their leading space) into pieces of at most 4 characters', () => {
    expect(simTokenize('Hello, wonderful world!')).toEqual(['Hell', 'o,', ' won', 'derf', 'ul', ' wor', 'ld!']);
    expect(simTokenize('a  b\n\nc ')).toEqual(['a', '  b', '\n\nc', ' ']);
    expect(simTokenize('')).toEqual([]);
  });

  it.each([
    'The quick brown fox.',
    '  leading and trailing  ',
    'tabs\tand\r\nCRLF\n',
    '{"city": "Paris", "n": [1, 2, 3]}',
    'emoji 😀😀😀 and accents déjà vu',
    'abcdefghijklmnopqrstuvwxyz',
  ])('round-trips %j exactly and never exceeds 4 chars or splits a surrogate pair', (text) => {
    const tokens = simTokenize(text);
    expect(tokens.join('')).toBe(text);
    for (const token of tokens) {
      expect(token.length).toBeGreaterThan(0);
      expect(token.length).toBeLessThanOrEqual(4);
      expect(token).not.toMatch(/[\uD800-\uDBFF]$/);
    }
    expect(simTokenize(text)).toEqual(tokens);
  });
});

describe('countPromptTokens', () => {
  it('is ceil(chars / 4) over contents, tool-call text and tool schemas', () => {
    expect(countPromptTokens([{ role: 'user', content: 'abcde' }])).toBe(2);
    expect(countPromptTokens([{ role: 'system', content: 'abcd' }, { role: 'user', content: null }])).toBe(1);
    expect(
      countPromptTokens([{ role: 'assistant', content: null, tool_calls: [{ id: 'x', name: 'abcd', arguments: '{}' }] }]),
    ).toBe(2);
    const tools = [{ type: 'function' as const, function: { name: 'f' } }];
    expect(countPromptTokens([{ role: 'user', content: 'abcd' }], tools)).toBe(1 + Math.ceil(JSON.stringify(tools).length / 4));
    expect(countPromptTokens([{ role: 'user', content: 'abcd' }], [])).toBe(1);
  });
});
