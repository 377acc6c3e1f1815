import { describe, expect, it } from 'vitest';
import { parseReplyFile } from './reply-file';

describe('parseReplyFile', () => {
  it('reads plain text, and JSON that is not a stored row, as the reply itself', () => {
    expect(parseReplyFile('Answer: 4\n', 'r.txt')).toEqual({ content: 'Answer: 4\n' });
    expect(parseReplyFile('{"name": "Ada", "age": 36}', 'r.json')).toEqual({ content: '{"name": "Ada", "age": 36}' });
    expect(parseReplyFile('{"content": "x"}', 'r.json', true)).toEqual({ content: '{"content": "x"}' });
  });
  it('reads a stored row: content, tool calls by turn (flattened), transcript, finish reason', () => {
    const row = { content: 'done', tool_calls_by_turn: [[{ id: 'a', name: 'lookup', arguments: '{"order":50}' }], [{ name: 'x', arguments: { y: 1 } }]], transcript: [{ role: 'user', content: 'hi' }], finish_reason: 'length', grade: {} };
    expect(parseReplyFile(JSON.stringify(row), 'r.json')).toEqual({
      content: 'done',
      tool_calls: [
        { id: 'a', name: 'lookup', arguments: '{"order":50}' },
        { id: 'call_x', name: 'x', arguments: '{"y":1}' },
      ],
      transcript: [{ role: 'user', content: 'hi' }],
      finish_reason: 'length',
    });
  });
  it('names the file and the field that is wrong', () => {
    expect(() => parseReplyFile('{"content": "", "tool_calls_by_turn": [{}]}', '/x/r.json')).toThrow('/x/r.json: "tool_calls_by_turn" must be an array of arrays');
    expect(() => parseReplyFile('{"content": "", "finish_reason": "sleepy"}', '/x/r.json')).toThrow('/x/r.json: "finish_reason" must be one of');
    expect(() => parseReplyFile('{"content": "", "tool_calls": [{"id": 1}]}', '/x/r.json')).toThrow('/x/r.json: tool_calls[0]: a tool call needs a "name" string');
  });
});
