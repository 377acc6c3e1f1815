import { describe, expect, it } from 'vitest';
import { stripThinking } from './index';

describe('stripThinking', () => {
  it('removes inline reasoning blocks of every known tag, any case, and trims', () => {
    expect(stripThinking('<think>hmm</think>\n42')).toBe('42');
    expect(stripThinking('<THINKING>a</THINKING>b <think>c</think> d')).toBe('b  d');
    expect(stripThinking('<|thinking|>x<|/thinking|>y')).toBe('y');
  });
  it('drops the rest after an unclosed opener, and what came before a stray closer', () => {
    expect(stripThinking('answer <think>never closed')).toBe('answer');
    expect(stripThinking('the opener was eaten</think>final')).toBe('final');
    expect(stripThinking('no tags here')).toBe('no tags here');
  });
});
