import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrucibleError, PREFLIGHT_PROMPT, readSse, type SseEvent } from '@crucibleforge/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { relayConversationText } from './relay';
import { startRelayEndpoint, type RelayEndpointOptions } from './relay-endpoint';
import { joined, post, toolCalls, type Chunk } from './test-support';
import type { SimEndpoint } from './types';

let dir: string;
const open: SimEndpoint[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cf-relay-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
  await rm(dir, { recursive: true, force: true });
});

async function relay(extra: Partial<RelayEndpointOptions> = {}): Promise<SimEndpoint> {
  const endpoint = await startRelayEndpoint({ dir, poll_ms: 10, keep_alive_ms: 25, ...extra });
  open.push(endpoint);
  return endpoint;
}

/** Resolves once `file` exists (the relay wrote it). */
async function appeared(file: string): Promise<void> {
  for (let i = 0; i < 500 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 10));
  expect(existsSync(file)).toBe(true);
}

const logLines = async () => (await readFile(join(dir, 'relay.log'), 'utf8')).trimEnd().split('\n').map((l) => l.replace(/^\S+ /, ''));
const requestFolders = async () => (await readdir(dir)).filter((n) => n.startsWith('req-')).sort();

const tools = [{ type: 'function', function: { name: 'get_lot', parameters: { type: 'object', properties: { id: { type: 'string' } } } } }];
const turn = [
  { role: 'developer', content: 'You run the cold store.' },
  { role: 'user', content: [{ type: 'text', text: 'Where are lots ' }, { type: 'text', text: 'A-15 and B-2?' }] },
];

describe('the relay endpoint', () => {
  it('lists its one model', async () => {
    const s = await relay({ model: 'blind' });
    const list = await (await fetch(`${s.url}/models`)).json();
    expect(list.data.map((m: { id: string }) => m.id)).toEqual(['blind']);
  });

  it('writes a streaming request to req-1, keeps the stream alive, and streams the written reply as tool calls', async () => {
    const s = await relay();
    const res = await post(s, { model: 'relay', messages: turn, tools, max_tokens: 900, stream: true, stream_options: { include_usage: true } });
    expect(res.status).toBe(200);
    const events = readSse(res)[Symbol.asyncIterator]();
    // Nothing is answered yet: the stream carries keep-alive comments only.
    expect((await events.next()).value).toMatchObject({ type: 'comment', text: 'keep-alive' });
    const conversation = join(dir, 'req-1', 'conversation.txt');
    await appeared(conversation);
    const text = await readFile(conversation, 'utf8');
    expect(text).toBe(
      relayConversationText({
        messages: [{ role: 'system', content: 'You run the cold store.' }, { role: 'user', content: 'Where are lots A-15 and B-2?' }],
        tools: tools as never,
        max_tokens: 900,
      }),
    );
    expect(text).toContain('=== END OF CONVERSATION (your reply budget: at most 900 tokens) ===');
    await writeFile(join(dir, 'req-1', 'reply.md'), 'Looking both up.\nCALL get_lot {"id": "A-15"}\nCALL get_lot {"id": "B-2"}\n');
    const rest: SseEvent[] = [];
    for (let e = await events.next(); !e.done; e = await events.next()) rest.push(e.value);
    const chunks: Chunk[] = rest.flatMap((e) => (e.type === 'data' && e.data !== '[DONE]' ? [JSON.parse(e.data)] : []));
    expect(rest.at(-1)).toMatchObject({ type: 'data', data: '[DONE]' });
    expect(joined(chunks, 'content')).toBe('Looking both up.');
    const calls = toolCalls(chunks);
    expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['get_lot', { id: 'A-15' }],
      ['get_lot', { id: 'B-2' }],
    ]);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1).usage.completion_tokens).toBeGreaterThan(0);
    expect(await logLines()).toEqual(['relay started: model relay', 'req-1 written: 2 message(s), 1 tool(s), streaming', 'req-1 reply read: 2 call(s), 16 character(s) of content']);
  });

  it('answers a non-streaming request with the reply as content, never cut at max_tokens', async () => {
    const s = await relay();
    const pending = post(s, { model: 'relay', messages: [{ role: 'user', content: 'Say a lot.' }], max_tokens: 2 });
    await appeared(join(dir, 'req-1', 'conversation.txt'));
    await writeFile(join(dir, 'req-1', 'reply.md'), '\nA long final answer, well past two tokens.\n');
    const body = await (await pending).json();
    expect(body.choices[0].message.content).toBe('A long final answer, well past two tokens.');
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.usage.completion_tokens).toBeGreaterThan(2);
  });

  it('names req-N/reply.md and the line when a CALL line does not parse, and logs it', async () => {
    const s = await relay();
    const pending = post(s, { model: 'relay', messages: turn, tools });
    await appeared(join(dir, 'req-1', 'conversation.txt'));
    await writeFile(join(dir, 'req-1', 'reply.md'), 'Checking.\nCALL get_lot {id: A-15}\n');
    const res = await pending;
    expect(res.status).toBe(400);
    const message: string = (await res.json()).error.message;
    expect(message).toMatch(/^req-1\/reply\.md line 2: the arguments of CALL get_lot are not valid JSON/);
    expect((await logLines()).at(-1)).toBe(`req-1 reply not usable: ${message}`);
  });

  it('numbers requests after the highest req-N already there, so a restarted relay never overwrites', async () => {
    for (const name of ['req-1', 'req-2', 'req-7']) await mkdir(join(dir, name));
    await writeFile(join(dir, 'req-7', 'reply.md'), 'old');
    const s = await relay();
    const controller = new AbortController();
    const first = post(s, { model: 'relay', messages: [{ role: 'user', content: 'one' }] });
    const second = fetch(`${s.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'relay', messages: [{ role: 'user', content: 'two' }], stream: true }),
      signal: controller.signal,
    });
    await appeared(join(dir, 'req-8', 'conversation.txt'));
    await appeared(join(dir, 'req-9', 'conversation.txt'));
    expect(await readFile(join(dir, 'req-7', 'reply.md'), 'utf8')).toBe('old');
    const contents = await Promise.all(['req-8', 'req-9'].map((n) => readFile(join(dir, n, 'conversation.txt'), 'utf8')));
    expect(contents.map((t) => /USER MESSAGE ===\n(\w+)/.exec(t)?.[1]).sort()).toEqual(['one', 'two']);
    await writeFile(join(dir, contents[0]!.includes('one') ? 'req-8' : 'req-9', 'reply.md'), 'first');
    expect((await (await first).json()).choices[0].message.content).toBe('first');
    // The client of the other one goes away: the relay stops waiting and says so.
    await (await second).body?.getReader().read();
    controller.abort();
    for (let i = 0; i < 200 && !(await logLines()).some((l) => l.endsWith('abandoned: the client went away or the relay closed')); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await logLines()).filter((l) => l.includes('abandoned'))).toHaveLength(1);
    expect(await requestFolders()).toEqual(['req-1', 'req-2', 'req-7', 'req-8', 'req-9']);
  });

  it('answers the runner preflight with "ready" at once and writes no request folder', async () => {
    const s = await relay();
    const res = await post(s, { model: 'relay', messages: [{ role: 'user', content: PREFLIGHT_PROMPT }], max_tokens: 512, stream: true });
    const text = await res.text();
    expect(text).toContain('"content":"ready"');
    expect(text).toContain('"finish_reason":"stop"');
    expect(await requestFolders()).toEqual([]);
    expect(await logLines()).toEqual(['relay started: model relay', 'preflight answered: ready']);
  });

  it('throws SIM_RELAY_DIR_UNUSABLE when the folder cannot be made', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    const started = startRelayEndpoint({ dir: join(file, 'relay') });
    await expect(started).rejects.toSatisfy((e) => CrucibleError.isInstance(e) && e.code === 'SIM_RELAY_DIR_UNUSABLE' && e.message.includes(file));
  });
});
