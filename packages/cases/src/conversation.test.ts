import type { ChatMessage } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { initialMessages, nextMessages, scriptedToolResults } from './conversation';
import { grade } from './grade';
import { materializeCase } from './materialize';
import { referenceTranscript } from './reference';
import type { CaseDef } from './schema/case';

const def: CaseDef = {
  id: 'tooluse-retry-then-book',
  title: 'Retry a rate-limited search, then book',
  category: 'tooluse',
  difficulty: 'medium',
  system: 'You book rooms.',
  turns: ['Book the cheapest room in Ostrel for 2026-05-01.', 'Thanks. Which room was it?'],
  max_tokens: 500,
  tools: [
    { name: 'search_rooms', parameters: { type: 'object', properties: { town: { type: 'string' } }, required: ['town'] } },
    { name: 'book_room', parameters: { type: 'object', properties: { room_id: { type: 'string' }, date: { type: 'string' } }, required: ['room_id', 'date'] } },
  ],
  tool_script: {
    results: [
      { tool: 'search_rooms', call: 1, result: { error: 'rate limited, retry' } },
      { tool: 'search_rooms', when: { town: 'Ostrel' }, result: { rooms: [{ id: 'R-118', price: 40 }, { id: 'R-181', price: 55 }] } },
      { tool: 'book_room', when: { room_id: 'R-118' }, result: { ok: true, booking: 'B-77' } },
    ],
    default_result: { error: 'not found' },
  },
  grader: {
    type: 'tool_calls',
    calls: [
      { name: 'search_rooms', args: { town: 'Ostrel' } },
      { name: 'book_room', args: { room_id: { equals: 'R-118', case_sensitive: true }, date: { date: '2026-05-01' } } },
    ],
    ordered: true,
    forbid: [{ name: 'book_room', args: { room_id: 'R-181' } }],
    answer: { all: ['R-118'] },
  },
  reference: {
    calls: [[{ name: 'search_rooms', arguments: { town: 'Ostrel' } }], [{ name: 'search_rooms', arguments: { town: 'Ostrel' } }], [{ name: 'book_room', arguments: { room_id: 'R-118', date: '2026-05-01' } }]],
    reply: 'It was room R-118 (booking B-77).',
  },
};

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: JSON.stringify(args) });

describe('conversation driving', async () => {
  const c = await materializeCase(def, null);
  it('starts with system and the first turn', () => {
    expect(initialMessages(c)).toEqual([{ role: 'system', content: 'You book rooms.' }, { role: 'user', content: def.turns![0] }]);
  });
  it('answers every parallel call, the n-th call of a tool by its own rule, unknown tools with an error', () => {
    const transcript: ChatMessage[] = [
      ...initialMessages(c),
      { role: 'assistant', content: null, tool_calls: [call('a', 'search_rooms', { town: 'Ostrel' }), call('b', 'search_rooms', { town: 'Ostrel' }), call('c', 'send_sms', {})] },
    ];
    const results = scriptedToolResults(c, transcript);
    expect(results.map((r) => [r.tool_call_id, r.content])).toEqual([
      ['a', '{"error":"rate limited, retry"}'],
      ['b', '{"rooms":[{"id":"R-118","price":40},{"id":"R-181","price":55}]}'],
      ['c', '{"error":"unknown tool: send_sms"}'],
    ]);
  });
  it('sends the next user turn after a text answer, then stops', () => {
    const t: ChatMessage[] = [...initialMessages(c), { role: 'assistant', content: 'Booked.' }];
    expect(nextMessages(c, t)).toEqual({ done: false, messages: [{ role: 'user', content: def.turns![1] }] });
    t.push({ role: 'user', content: def.turns![1]! }, { role: 'assistant', content: 'R-118' });
    expect(nextMessages(c, t)).toEqual({ done: true });
  });
  it('the reference plays through the script and passes; wrong lookalike booking is forbidden', async () => {
    const ref = referenceTranscript(c);
    expect(ref.transcript!.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      '{"error":"rate limited, retry"}',
      '{"rooms":[{"id":"R-118","price":40},{"id":"R-181","price":55}]}',
      '{"ok":true,"booking":"B-77"}',
    ]);
    expect(await grade(c, ref)).toMatchObject({ status: 'pass' });
    const wrong = referenceTranscript(c, { calls: [[{ name: 'search_rooms', arguments: { town: 'Ostrel' } }], [{ name: 'book_room', arguments: { room_id: 'R-181', date: '2026-05-01' } }]] });
    expect(await grade(c, wrong)).toMatchObject({ status: 'fail', reason: 'forbidden call book_room(room_id="R-181", date="2026-05-01")' });
  });
  it('explains misses: wrong argument, wrong order, too few calls in one turn', async () => {
    const bad = referenceTranscript(c, { calls: [[{ name: 'search_rooms', arguments: { town: 'Ostrel' } }], [{ name: 'book_room', arguments: { room_id: 'r-118', date: 'May 1, 2026' } }]] });
    expect((await grade(c, bad)).reason).toBe('book_room: room_id: expected "R-118", got "r-118"');
    const parallel = { ...c, grader: { type: 'tool_calls' as const, calls: [{ name: 'search_rooms' }, { name: 'search_rooms' }, { name: 'book_room' }], in_one_turn: true } };
    expect((await grade(parallel, referenceTranscript(c))).reason).toBe('1 call in one turn, expected 3');
  });
});
