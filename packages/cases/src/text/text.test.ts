import { describe, expect, it } from 'vitest';
import { extractCode, fencedBlocks } from './code';
import { checkKeys, extractJson, getPath } from './json';
import { stripThinking } from '@crucibleforge/core';
import { explicitAnswers as labelledLines } from '../answers/final';
import { formatRational, numbersIn, parseRational } from './numbers';

describe('numbers', () => {
  it('parses integers, separators, decimals, fractions and LaTeX fractions exactly', () => {
    expect(formatRational(parseRational('1,234,567')!)).toBe('1234567');
    expect(formatRational(parseRational('0.75')!)).toBe('3/4');
    expect(formatRational(parseRational('-6/8')!)).toBe('-3/4');
    expect(formatRational(parseRational('\\frac{10}{4}')!)).toBe('5/2');
    expect(formatRational(parseRational('123456789012345678901234567890')!)).toBe('123456789012345678901234567890');
    expect(parseRational('12,34')).toBeNull();
    expect(parseRational('abc')).toBeNull();
  });
  it('finds numbers but not digits glued to words, and reads ranges without minus signs', () => {
    expect(numbersIn('x86 has 16 regs, pages 10-12').map((n) => n.text)).toEqual(['16', '10', '12']);
  });
});

describe('thinking and labels', () => {
  it('strips think blocks, unclosed openers and stray closers', () => {
    expect(stripThinking('<think>secret</think>Answer: 4')).toBe('Answer: 4');
    expect(stripThinking('Answer: 4<think>unfinished')).toBe('Answer: 4');
    expect(stripThinking('leaked reasoning</think>Answer: 5')).toBe('Answer: 5');
  });
  it('finds labels with markdown and "final"', () => {
    expect(labelledLines('blah\n**Final Answer:** 42\nAnswer = 7')).toEqual(['42', '7']);
    expect(labelledLines('The answer: is unclear')).toEqual([]);
  });
});

describe('code extraction', () => {
  it('takes the fenced block that defines the function, preamble stripped', () => {
    const reply = 'Sure! Here is how:\n```bash\npip install x\n```\n```python\ndef f(x):\n    return x\n```\nExample:\n```python\nprint(f(2))\n```';
    expect(extractCode(reply, 'python', 'f')).toEqual({ ok: true, code: 'def f(x):\n    return x', note: '' });
  });
  it('prefers the last defining block and keeps earlier helper blocks', () => {
    const reply = '```python\ndef helper(y):\n    return y * 2\n```\nFirst try:\n```python\ndef f(x):\n    return 0\n```\nFixed:\n```python\ndef f(x):\n    return helper(x)\n```';
    const r = extractCode(reply, 'python', 'f');
    expect(r.ok && r.code).toBe('def helper(y):\n    return y * 2\n\ndef f(x):\n    return helper(x)');
  });
  it('handles an unclosed fence and unfenced code after a preamble', () => {
    expect(fencedBlocks('```js\nfunction f() {}')).toEqual([{ lang: 'js', code: 'function f() {}', closed: false }]);
    const r = extractCode('Here you go:\ndef f(x):\n    return 1', 'python', 'f');
    expect(r.ok && r.code).toBe('def f(x):\n    return 1');
  });
  it('says when nothing defines the function', () => {
    expect(extractCode('```python\ndef g(): pass\n```', 'python', 'f')).toEqual({ ok: false, reason: 'no code block defines f' });
    expect(extractCode('', 'node', 'f')).toEqual({ ok: false, reason: 'no code in response (empty reply)' });
  });
});

describe('json', () => {
  it('extracts from a fence or from prose, and says whether it was the whole reply', () => {
    expect(extractJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 }, whole: true });
    expect(extractJson('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 }, whole: true });
    expect(extractJson('Result: {"a": "}"} done')).toEqual({ ok: true, value: { a: '}' }, whole: false });
    expect(extractJson('no json').ok).toBe(false);
  });
  it('checks exact keys and types; booleans are not integers', () => {
    expect(checkKeys({ n: 1, s: 'x' }, { n: 'integer', s: 'string' }, true)).toBeNull();
    expect(checkKeys({ n: true }, { n: 'integer' }, true)).toBe('n: expected integer, got boolean');
    expect(checkKeys({ n: 1, extra: 0 }, { n: 'number' }, true)).toBe('$: unexpected key "extra"');
    expect(checkKeys({ list: [{ name: 'a', count: 'x' }] }, { list: { array: { object: { name: 'string', count: 'integer' } } } }, true)).toBe(
      'list[0].count: expected integer, got string',
    );
  });
  it('reads nested paths', () => {
    expect(getPath({ a: { b: [{ c: 3 }] } }, 'a.b[0].c')).toEqual({ found: true, value: 3 });
    expect(getPath({ a: {} }, 'a.b[0]').found).toBe(false);
  });
});

describe('labels mid-line and on their own line', () => {
  it('finds an exact-case label mid-line and a value on the next line', () => {
    expect(labelledLines('Answer: 838\nOn second thought, Answer: 839')).toEqual(['838', '839']);
    expect(labelledLines('Final answer:\n\n  42\n')).toEqual(['42']);
    expect(labelledLines('**Answer:** 7')).toEqual(['7']);
  });
});
