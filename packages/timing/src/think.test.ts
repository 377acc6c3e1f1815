import { describe, expect, it } from 'vitest';
import { ThinkSplitter } from './think';

function split(pieces: string[]) {
  const s = new ThinkSplitter();
  let reasoning = '';
  let content = '';
  const steps = pieces.map((p) => {
    const piece = s.push(p);
    if (piece.reclassify) {
      reasoning += content;
      content = '';
    }
    reasoning += piece.reasoning;
    content += piece.content;
    return piece;
  });
  const tail = s.flush();
  reasoning += tail.reasoning;
  content += tail.content;
  return { reasoning, content, steps };
}

describe('ThinkSplitter', () => {
  it('moves an inline <think> block into reasoning, with tags cut anywhere', () => {
    const text = '<think>let me see</think>The answer is 4.';
    for (let cut = 1; cut < text.length; cut++) {
      const got = split([text.slice(0, cut), text.slice(cut)]);
      expect(got.reasoning).toBe('let me see');
      expect(got.content).toBe('The answer is 4.');
    }
  });

  it('counts the opening tag alone as reasoning seen, and the answer only after the close tag', () => {
    const got = split(['<think>', 'hmm', '</think>', 'Yes']);
    expect(got.steps.map((p) => [p.reasoning_seen, p.content])).toEqual([
      [true, ''],
      [true, ''],
      [true, ''],
      [false, 'Yes'],
    ]);
  });

  it('passes plain content and look-alike tags through untouched', () => {
    expect(split(['<div>', 'hi</div>'])).toMatchObject({ reasoning: '', content: '<div>hi</div>' });
    expect(split(['Hello', ' world'])).toMatchObject({ reasoning: '', content: 'Hello world' });
    expect(split(['<', 't'])).toMatchObject({ reasoning: '', content: '<t' });
  });

  it('accepts the other tag spellings seen in the wild', () => {
    expect(split(['<|thinking|>a<|/thinking|>b'])).toMatchObject({ reasoning: 'a', content: 'b' });
    expect(split(['<thinking>a</thinking>b'])).toMatchObject({ reasoning: 'a', content: 'b' });
  });

  it('reclassifies earlier content when a closing tag arrives without an opening one', () => {
    const got = split(['step one, ', 'step two</th', 'ink>Final']);
    expect(got.reasoning).toBe('step one, step two');
    expect(got.content).toBe('Final');
    expect(got.steps.filter((p) => p.reclassify)).toHaveLength(1);
  });

  it('keeps an unclosed block (cut by max_tokens) as reasoning', () => {
    expect(split(['<think>still thinking</thi'])).toMatchObject({ reasoning: 'still thinking</thi', content: '' });
  });
});
