import { PREFLIGHT_PROMPT, type ToolDefinition } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { isPreflightRequest, nextRequestNumber, parseRelayReply, relayConversationText, RELAY_TOOL_INSTRUCTIONS } from './relay';

const tools: ToolDefinition[] = [{ type: 'function', function: { name: 'get_lot', parameters: { type: 'object', properties: { id: { type: 'string' } } } } }];

describe('relayConversationText', () => {
  it('writes a multi-turn request with tool calls and tool results in the blind conversation layout', () => {
    const text = relayConversationText({
      messages: [
        { role: 'system', content: 'You run the cold store.' },
        { role: 'user', content: 'Where is lot A-15?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', name: 'get_lot', arguments: '{"id":"A-15"}' }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"bay": 7}' },
        { role: 'assistant', content: 'Checking both.', tool_calls: [{ id: 'c2', name: 'get_lot', arguments: '{"id":"B-1"}' }, { id: 'c3', name: 'get_lot', arguments: '{}' }] },
        { role: 'tool', tool_call_id: 'c2', content: 'not found' },
        { role: 'tool', tool_call_id: 'c3', content: 'error: id missing' },
      ],
      tools,
      max_tokens: 2048,
    });
    expect(text).toBe(
      [
        '=== SYSTEM MESSAGE ===',
        'You run the cold store.',
        '',
        '=== USER MESSAGE ===',
        'Where is lot A-15?',
        '',
        '=== ASSISTANT MESSAGE (your earlier turn) ===',
        'CALL get_lot {"id":"A-15"}   [call id call_1]',
        '',
        '=== TOOL RESULT (call id call_1) ===',
        '{"bay": 7}',
        '',
        '=== ASSISTANT MESSAGE (your earlier turn) ===',
        'Checking both.',
        'CALL get_lot {"id":"B-1"}   [call id c2]',
        'CALL get_lot {}   [call id c3]',
        '',
        '=== TOOL RESULT (call id c2) ===',
        'not found',
        '',
        '=== TOOL RESULT (call id c3) ===',
        'error: id missing',
        '',
        '=== TOOLS OFFERED ===',
        JSON.stringify(tools, null, 1),
        '',
        '=== END OF CONVERSATION (your reply budget: at most 2048 tokens) ===',
        '',
        RELAY_TOOL_INSTRUCTIONS,
        '',
      ].join('\n'),
    );
    expect(RELAY_TOOL_INSTRUCTIONS).toContain('\nCALL <tool_name> <arguments as one-line JSON>\n');
  });

  it('leaves out the tools and the instructions when no tools are offered, and says when the budget is unstated', () => {
    const text = relayConversationText({ messages: [{ role: 'user', content: 'Hi' }], tools: [], max_tokens: null });
    expect(text).toBe('=== USER MESSAGE ===\nHi\n\n=== END OF CONVERSATION (your reply budget: at most unstated tokens) ===\n');
  });
});

describe('parseRelayReply', () => {
  it('reads content only, trimmed as a whole', () => {
    expect(parseRelayReply('\n  The answer is 42.\n\n  Indented stays.\n\n')).toEqual({
      ok: true,
      answer: { content: 'The answer is 42.\n\n  Indented stays.', tool_calls: [] },
    });
  });

  it('reads calls only, their arguments as written', () => {
    const got = parseRelayReply('CALL get_lot {"id": "A-15"}\r\n  CALL get_time {}  \n');
    expect(got).toEqual({ ok: true, answer: { content: '', tool_calls: [{ name: 'get_lot', arguments: '{"id": "A-15"}' }, { name: 'get_time', arguments: '{}' }] } });
  });

  it('reads content and calls together; a line that only mentions CALL is content', () => {
    const got = parseRelayReply('I will look it up.\nCALL get_lot {"id":"A-15"}\nCALL me later, said nobody.');
    expect(got).toEqual({ ok: true, answer: { content: 'I will look it up.\nCALL me later, said nobody.', tool_calls: [{ name: 'get_lot', arguments: '{"id":"A-15"}' }] } });
  });

  it('names the line of arguments that are not JSON, and of a call cut off', () => {
    const bad = parseRelayReply('Looking.\nCALL get_lot {"id": A-15}\n');
    expect(bad).toMatchObject({ ok: false, line: 2 });
    expect(!bad.ok && bad.problem).toMatch(/^the arguments of CALL get_lot are not valid JSON/);
    const cut = parseRelayReply('CALL get_lot {}\nCALL get_lot {"id": "A-1"');
    expect(cut).toMatchObject({ ok: false, line: 2 });
    expect(!cut.ok && cut.problem).toContain('must end with its JSON arguments object');
  });
});

describe('nextRequestNumber', () => {
  it('continues after the highest req-N and ignores everything else', () => {
    expect(nextRequestNumber([])).toBe(1);
    expect(nextRequestNumber(['relay.log', 'req-2', 'req-10', 'req-9', 'req-x', 'req-11.bak', 'notes'])).toBe(11);
  });
});

describe('isPreflightRequest', () => {
  it('is true only for the preflight prompt alone', () => {
    const preflight = { messages: [{ role: 'user' as const, content: PREFLIGHT_PROMPT }], tools: [] };
    expect(isPreflightRequest(preflight)).toBe(true);
    expect(isPreflightRequest({ ...preflight, tools })).toBe(false);
    expect(isPreflightRequest({ messages: [{ role: 'system', content: 'x' }, ...preflight.messages], tools: [] })).toBe(false);
    expect(isPreflightRequest({ messages: [{ role: 'user', content: `${PREFLIGHT_PROMPT}, please` }], tools: [] })).toBe(false);
  });
});
