// What a server adds on top of the engine: one random-weight GGUF measured by the speed benchmark twice,
// in process (the engine's own token events) and through a minimal OpenAI-compatible SSE server that runs
// the same engine in a child process (HTTP + SSE + the timing client's parser). Also llama-bench pp/tg.
// Run: pnpm --filter @crucibleforge/engine-llamacpp bench   (builds first), or node bench/overhead.mjs.
// Knobs: BENCH_RUNS (default 5), BENCH_THREADS (default 1), BENCH_TOKENS (default 64).
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSpeedBenchmark } from '@crucibleforge/timing';
import { writeTinyLlama } from '@crucibleforge/speed/testing';
import { createLlamaCppEngine, renderPpTg } from '../dist/index.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 64);
const MODEL = { type: 'F16', embedding: 256, layers: 4, heads: 8, name: 'random-llama' };

function serve(gguf) {
  const engine = createLlamaCppEngine({ gguf, model: 'random-llama', threads: THREADS, contextSize: 1024 });
  const chunk = (fields) => `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'random-llama', ...fields })}\n\n`;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', async () => {
      if (!req.url?.endsWith('/chat/completions')) return res.writeHead(404).end();
      const request = JSON.parse(body);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }));
      const stream = engine.stream({ messages: request.messages, max_tokens: request.max_tokens, temperature: request.temperature ?? 0 });
      for await (const event of stream) {
        if (event.type === 'text-delta') res.write(chunk({ choices: [{ index: 0, delta: { content: event.text }, finish_reason: null }] }));
      }
      const timed = await stream.result;
      res.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: timed.finish_reason }] }));
      res.write(chunk({ choices: [], usage: { prompt_tokens: timed.prompt_tokens, completion_tokens: timed.completion_tokens, total_tokens: (timed.prompt_tokens ?? 0) + (timed.completion_tokens ?? 0) } }));
      res.end('data: [DONE]\n\n');
    });
  });
  engine.load().then(() => server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port })));
}

const settings = { model: 'random-llama', prompts: ['short', 'medium'], runs: RUNS, warmup: 1, maxTokens: TOKENS, metadata: false };
const row = (label, r) => {
  const s = r.summary;
  return `${label.padEnd(22)} TTFT ${(s.ttft_s * 1000).toFixed(1).padStart(6)} ms · decode ${s.decode_tps.toFixed(0).padStart(5)} T/s · prefill ${s.prefill_tps.toFixed(0).padStart(6)} T/s`;
};

if (process.argv[2] === '--serve') {
  serve(process.argv[3]);
} else {
  const dir = await mkdtemp(join(tmpdir(), 'cf-engine-bench-'));
  const { path, parameters, bytes } = await writeTinyLlama(join(dir, 'random-llama.gguf'), MODEL);
  console.log(`random-llama: ${(parameters / 1e6).toFixed(1)} M parameters, F16, ${(bytes.length / 1e6).toFixed(1)} MB; ${THREADS} thread(s); ${RUNS} runs per prompt after 1 warm-up; ${TOKENS} tokens each`);
  const engine = createLlamaCppEngine({ gguf: path, model: 'random-llama', threads: THREADS, contextSize: 1024 });
  const inProcess = await runSpeedBenchmark({ ...settings, completer: engine, providerKind: 'llamacpp' });
  const pptg = await engine.benchmark({ promptTokens: 512, generateTokens: 128, repetitions: 5 });
  await engine.close();
  const child = fork(fileURLToPath(import.meta.url), ['--serve', path], { stdio: 'inherit' });
  const { port } = await new Promise((resolve) => child.once('message', resolve));
  try {
    const server = await runSpeedBenchmark({ ...settings, baseUrl: `http://127.0.0.1:${port}/v1`, providerKind: 'generic' });
    console.log(row('in process (engine)', inProcess));
    console.log(row('through an HTTP server', server));
    const a = inProcess.summary;
    const b = server.summary;
    console.log(`server overhead: TTFT +${((b.ttft_s - a.ttft_s) * 1000).toFixed(1)} ms, decode ${(((b.decode_tps - a.decode_tps) / a.decode_tps) * 100).toFixed(1)} %, prefill ${(((b.prefill_tps - a.prefill_tps) / a.prefill_tps) * 100).toFixed(1)} % (medians over the short and medium prompts)`);
    process.stdout.write(renderPpTg(pptg));
  } finally {
    child.kill();
    await rm(dir, { recursive: true, force: true });
  }
}
