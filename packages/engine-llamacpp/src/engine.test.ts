import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrucibleError } from '@crucibleforge/core';
import type { TimingEvent } from '@crucibleforge/timing';
import { writeTinyLlama } from '@crucibleforge/speed/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaCppEngine, type LlamaCppEngine } from './engine';
import { renderPpTg } from './bench';

let dir: string;
let f16: LlamaCppEngine;
let q8: LlamaCppEngine;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cf-engine-'));
  const a = await writeTinyLlama(join(dir, 'tiny-f16.gguf'), { type: 'F16' });
  const b = await writeTinyLlama(join(dir, 'tiny-q8.gguf'), { type: 'Q8_0', seed: 2 });
  f16 = createLlamaCppEngine({ gguf: a.path, threads: 1, contextSize: 512 });
  q8 = createLlamaCppEngine({ gguf: b.path, threads: 1, contextSize: 512 });
}, 60_000);

afterAll(async () => {
  await f16?.close();
  await q8?.close();
  await rm(dir, { recursive: true, force: true });
});

const ask = (max_tokens: number) => ({ messages: [{ role: 'user' as const, content: 'Say something.' }], max_tokens });

describe('the in-process llama.cpp engine on a generated random-weight GGUF', () => {
  it('loads with the asked context, threads and batch and names the model after the file', async () => {
    const info = await f16.load();
    expect(info).toMatchObject({ model: 'tiny-f16', context_size: 512, threads: 1, batch_size: 512, train_context_size: 2048 });
    expect(info.load_s).toBeGreaterThan(0);
    expect(f16.model).toBe('tiny-f16');
  });

  it('tokenises with the model vocabulary: one token per ASCII character, UTF-8 bytes otherwise', async () => {
    const ascii = await f16.tokenize('Hello');
    expect(ascii.length).toBe(1 + 5); // BOS, then H e l l o (the leading space is the first piece)
    const accented = await f16.tokenize('é');
    expect(accented.length).toBeGreaterThanOrEqual(3); // BOS, ▁ / 0xC3, 0xA9 bytes
  });

  it('streams typed events and measures from its own token events with exact token counts', async () => {
    const stream = f16.stream(ask(24));
    const events: TimingEvent[] = [];
    for await (const event of stream) events.push(event);
    const timed = await stream.result;
    expect(events[0]).toEqual({ type: 'request-start', at_s: 0 });
    expect(events.at(-1)?.type).toBe('response-end');
    expect(events.some((e) => e.type === 'usage')).toBe(true);
    expect(timed.completion_tokens).toBe(24);
    expect(timed.finish_reason).toBe('length');
    expect(timed.token_source).toBe('usage');
    expect(timed.usage_mismatch).toBe(false);
    expect(timed.served_model).toBe('tiny-f16');
    expect(timed.wrong_model).toBe(false);
    expect(timed.ttft_s).toBeGreaterThan(0);
    expect(timed.decode_tps).toBeGreaterThan(0);
    expect(timed.prefill_tps).toBeGreaterThan(0);
    expect(timed.prefill_source).toBe('ttft');
    expect(timed.events.token_bearing).toBeGreaterThan(1);
    // The prompt count is what the chat template renders, tokenised by the engine: more than the message alone.
    const message = await f16.tokenize('Say something.');
    expect(timed.prompt_tokens).toBeGreaterThan(message.length);
    expect(timed.e2e_s! >= timed.ttft_s!).toBe(true);
  });

  it('counts prompt tokens with the engine tokenizer: added text adds exactly its tokens', async () => {
    const extra = ' and then some more, in ASCII.';
    const base = await f16.completeTimed(ask(2));
    const longer = await f16.completeTimed({ ...ask(2), messages: [{ role: 'user', content: `Say something.${extra}` }] });
    const extraTokens = (await f16.tokenize(extra)).length - 1; // minus BOS
    expect(extraTokens).toBe(extra.length); // byte-level vocabulary: one token per ASCII character
    expect(longer.prompt_tokens! - base.prompt_tokens!).toBe(extraTokens);
  });

  it('counts the same prompt the same way every time (no prompt cache between requests)', async () => {
    const a = await f16.completeTimed(ask(4));
    const b = await f16.completeTimed(ask(4));
    expect(a.prompt_tokens).toBe(b.prompt_tokens);
    expect(b.cached_tokens).toBe(0);
  });

  it('runs a quantised (Q8_0) model too, and serialises concurrent requests', async () => {
    const [x, y] = await Promise.all([q8.completeTimed(ask(8)), q8.completeTimed(ask(8))]);
    expect(x.completion_tokens).toBe(8);
    expect(y.completion_tokens).toBe(8);
    expect((await q8.complete(ask(3))).usage.completion_tokens).toBe(3);
  });

  it('measures llama-bench style pp and tg with mean ± sd over the repetitions', async () => {
    const report = await f16.benchmark({ promptTokens: 64, generateTokens: 16, repetitions: 3 });
    expect(report.tests.map((t) => t.test)).toEqual(['pp64', 'tg16']);
    for (const t of report.tests) {
      expect(t.samples_tps).toHaveLength(3);
      expect(t.mean_tps).toBeGreaterThan(0);
      expect(t.sd_tps).toBeGreaterThanOrEqual(0);
    }
    const table = renderPpTg(report).split('\n');
    expect(table[2]).toMatch(/^\| model +\| +size \| +params \| backend \| threads \| +test \| +t\/s \|$/);
    expect(table[4]).toMatch(/^\| llama .*F16 +\| +\d+\.\d\d MiB \| +\d+\.\d\d M \| CPU +\| +1 \| +pp64 \| +\d+\.\d\d ± \d+\.\d\d \|$/);
    expect(table[5]).toMatch(/\| +tg16 \| +\d+\.\d\d ± \d+\.\d\d \|$/);
    expect(report).toMatchObject({ parameters: expect.any(Number), size_bytes: expect.any(Number) });
    await expect(f16.benchmark({ promptTokens: 4096 })).rejects.toMatchObject({ code: 'ENGINE_CONTEXT_OVERFLOW' });
  });

  it('a cancelled request rejects with ENGINE_ABORTED', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(f16.completeTimed({ ...ask(8), signal: controller.signal })).rejects.toMatchObject({ code: 'ENGINE_ABORTED' });
  });

  it('names the path when the GGUF is missing, and when it is not a GGUF', async () => {
    const missing = join(dir, 'nope', 'model.gguf');
    const engine = createLlamaCppEngine({ gguf: missing });
    const error = await engine.load().catch((e: unknown) => e);
    expect(CrucibleError.isInstance(error) && error.code).toBe('ENGINE_GGUF_MISSING');
    expect((error as Error).message).toContain(missing);
    const { writeFile } = await import('node:fs/promises');
    const junk = join(dir, 'junk.gguf');
    await writeFile(junk, 'not a model');
    const bad = await createLlamaCppEngine({ gguf: junk }).load().catch((e: unknown) => e);
    expect((bad as CrucibleError).code).toBe('ENGINE_LOAD_FAILED');
    expect((bad as Error).message).toContain(junk);
  });

  it('refuses bad options and use after close', async () => {
    expect(() => createLlamaCppEngine({ gguf: 'x.gguf', threads: 0 })).toThrow(/threads/);
    const engine = createLlamaCppEngine({ gguf: join(dir, 'tiny-f16.gguf'), threads: 1, contextSize: 256 });
    await engine.load();
    await engine.close();
    await expect(engine.completeTimed(ask(2))).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
  });
});
