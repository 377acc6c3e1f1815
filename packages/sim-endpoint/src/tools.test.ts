import { describe, expect, it } from 'vitest';
import { collect, hello, joined, post, sim, toolCalls } from './test-support';
import { countPromptTokens } from './tokenize';

const tools = [
  { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  { type: 'function', function: { name: 'get_time', parameters: { type: 'object' } } },
];
const calls = [
  { name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
  { name: 'get_time', arguments: '{"zone": "Europe/Paris"}' },
];

describe('sim endpoint tool calls', () => {
  it('streams several calls in one turn as delta.tool_calls fragments that reassemble', async () => {
    const s = await sim([{ id: 'm', decode_tps: 2000, answer: { content: 'Checking.', tool_calls: calls } }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, tools, stream: true }));
    expect(joined(got.chunks, 'content')).toBe('Checking.');
    const fragments = got.chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    // Each call: a header with index, id, type and the whole name first, then arguments in pieces.
    const headers = fragments.filter((f) => f.id);
    expect(headers).toEqual([
      { index: 0, id: 'call_0_0', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 1, id: 'call_0_1', type: 'function', function: { name: 'get_time', arguments: '' } },
    ]);
    expect(fragments.filter((f) => f.index === 0 && !f.id).length).toBeGreaterThan(3);
    expect(fragments.findIndex((f) => f.index === 1)).toBeGreaterThan(fragments.findLastIndex((f) => f.index === 0));
    const assembled = toolCalls(got.chunks);
    expect(assembled.map((c) => c.name)).toEqual(['get_weather', 'get_time']);
    expect(JSON.parse(assembled[0]!.arguments)).toEqual({ city: 'Paris', unit: 'celsius' });
    expect(JSON.parse(assembled[1]!.arguments)).toEqual({ zone: 'Europe/Paris' });
    expect(got.chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
    const t = s.truth[0]!;
    expect(t.tool_call_count).toBe(2);
    expect(t.finish_reason).toBe('tool_calls');
    expect(t.prompt_tokens).toBe(countPromptTokens([{ role: 'user', content: hello[0]!.content }], tools as never));
  });

  it('returns tool_calls in a non-streaming message with content null', async () => {
    const s = await sim([{ id: 'm', decode_tps: 5000, answer: { tool_calls: calls } }]);
    const body = await (await post(s, { model: 'm', messages: hello, tools })).json();
    const message = body.choices[0].message;
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(message.content).toBeNull();
    expect(s.truth[0]).toMatchObject({ tool_call_count: 2, finish_reason: 'tool_calls' });
    expect(message.tool_calls).toEqual([
      { id: 'call_0_0', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(calls[0]!.arguments) } },
      { id: 'call_0_1', type: 'function', function: { name: 'get_time', arguments: calls[1]!.arguments } },
    ]);
  });

  it('lets an answer function call tools and then answer the tool result', async () => {
    const s = await sim([
      {
        id: 'agent',
        decode_tps: 5000,
        answer: (req) => {
          const last = req.messages.at(-1);
          if (last?.role === 'tool') return { content: `It is ${last.content}.` };
          return { tool_calls: [{ name: 'get_time', arguments: {} }] };
        },
      },
    ]);
    const first = await (await post(s, { model: 'agent', messages: hello, tools })).json();
    const call = first.choices[0].message.tool_calls[0];
    const second = await (
      await post(s, {
        model: 'agent',
        tools,
        messages: [...hello, first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'noon' }],
      })
    ).json();
    expect(second.choices[0].message.content).toBe('It is noon.');
  });
});

describe('sim endpoint max_tokens budget', () => {
  it('finishes with length when content overruns max_tokens', async () => {
    const s = await sim([{ id: 'm', decode_tps: 2000, answer: { content: 'one two six ten and the end' } }]);
    const got = await collect(await post(s, { model: 'm', messages: hello, stream: true, max_tokens: 3 }));
    expect(joined(got.chunks, 'content')).toBe('one two six');
    expect(got.chunks.at(-1).choices[0].finish_reason).toBe('length');
    expect(s.truth[0]).toMatchObject({ completion_tokens: 3, finish_reason: 'length' });
  });

  it('finishes with length and empty content when the budget is all spent on reasoning', async () => {
    const s = await sim([
      { id: 'rc', decode_tps: 2000, answer: { reasoning: 'a b c d e f g h', content: 'Answer.' } },
      { id: 'tags', reasoning_encoding: 'think_tags', decode_tps: 2000, answer: { reasoning: 'a b c d e f g h', content: 'Answer.' } },
    ]);
    const got = await collect(await post(s, { model: 'rc', messages: hello, stream: true, max_completion_tokens: 5 }));
    expect(joined(got.chunks, 'reasoning_content')).toBe('a b c d e');
    expect(joined(got.chunks, 'content')).toBe('');
    expect(got.chunks.at(-1).choices[0].finish_reason).toBe('length');
    expect(s.truth[0]).toMatchObject({ reasoning_tokens: 5, content_tokens: 0, first_content_ms: null, finish_reason: 'length' });

    const body = await (await post(s, { model: 'tags', messages: hello, max_tokens: 4 })).json();
    expect(body.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: '<think>a b c' } });
    expect(body.usage).toMatchObject({ completion_tokens: 4, completion_tokens_details: { reasoning_tokens: 4 } });
  });

  it('cuts a tool call at the budget and reports length', async () => {
    const s = await sim([{ id: 'm', decode_tps: 5000, answer: { content: 'ok', tool_calls: calls } }]);
    const body = await (await post(s, { model: 'm', messages: hello, tools, max_tokens: 8 })).json();
    expect(body.choices[0].finish_reason).toBe('length');
    expect(body.choices[0].message.tool_calls).toHaveLength(1);
    expect(() => JSON.parse(body.choices[0].message.tool_calls[0].function.arguments)).toThrow();
    const exact = await (await post(s, { model: 'm', messages: hello, tools, max_tokens: 1000 })).json();
    expect(exact.choices[0].finish_reason).toBe('tool_calls');
  });
});
