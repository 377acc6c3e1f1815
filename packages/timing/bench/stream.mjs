// Throughput of the timing client on a 100,000-event SSE stream from a local server (a worker
// thread), beside a bare fetch + line-split loop and the openai SDK's own stream parser.
// Run: pnpm --filter @crucibleforge/timing bench   (builds first), or node bench/stream.mjs after a build.
import { createServer } from 'node:http';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import OpenAI from 'openai';
import { streamChat } from '../dist/index.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function serve() {
  const chunk = (delta, finish = null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  const parts = [chunk({ role: 'assistant', content: '' })];
  for (let i = 0; i < workerData.events; i++) parts.push(chunk({ content: ` t${i % 100}` }));
  parts.push(chunk({}, 'stop'));
  parts.push(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [], usage: { prompt_tokens: 10, completion_tokens: workerData.events, total_tokens: workerData.events + 10 } })}\n\n`);
  parts.push('data: [DONE]\n\n');
  const body = Buffer.from(parts.join(''));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port, bytes: body.length }));
}

/** The floor any parser is measured against: fetch and split lines; `parse` also JSON.parses each event. */
async function bareLoop(url, parse) {
  const res = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const decoder = new TextDecoder();
  let buffer = '';
  let events = 0;
  for await (const bytes of res.body) {
    buffer += decoder.decode(bytes, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop();
    for (const line of lines) {
      if (!line.startsWith('data:')) continue;
      if (parse) {
        if (line === 'data: [DONE]') continue;
        JSON.parse(line.slice(6));
      }
      events++;
    }
  }
  return events;
}

const bare = (url) => bareLoop(url, false);
const bareJson = (url) => bareLoop(url, true);

const request = { messages: [{ role: 'user', content: 'go' }] };

async function client(url) {
  const stream = streamChat({ baseUrl: url, model: 'bench', request });
  let deltas = 0;
  for await (const event of stream) if (event.type === 'text-delta') deltas++;
  const result = await stream.result;
  if (result.events.token_bearing !== EVENTS || deltas !== EVENTS) throw new Error(`client saw ${result.events.token_bearing} events`);
  return result.events.total;
}

async function clientResultOnly(url) {
  const result = await streamChat({ baseUrl: url, model: 'bench', request, events: false }).result;
  return result.events.total;
}

async function sdk(url) {
  const openai = new OpenAI({ baseURL: url, apiKey: 'x', maxRetries: 0 });
  const stream = await openai.chat.completions.create({ model: 'bench', messages: request.messages, stream: true });
  let events = 0;
  for await (const _chunk of stream) events++;
  return events;
}

async function measure(name, fn, url) {
  const times = [];
  let events = 0;
  await fn(url); // warm-up (JIT, connection)
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    events = await fn(url);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const ms = times[Math.floor(times.length / 2)];
  return { name, events, median_ms: ms, events_per_s: Math.round((events / ms) * 1000), us_per_event: (ms * 1000) / events };
}

if (isMainThread) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { events: EVENTS } });
  const { port, bytes } = await new Promise((resolve) => worker.once('message', resolve));
  const url = `http://127.0.0.1:${port}/v1`;
  console.log(`${EVENTS} events, ${(bytes / 1e6).toFixed(1)} MB per stream, median of ${ROUNDS} rounds, node ${process.version}`);
  const rows = [];
  rows.push(await measure('bare fetch + line split', bare, url));
  rows.push(await measure('bare fetch + line split + JSON.parse', bareJson, url));
  rows.push(await measure('openai SDK Stream (for await chunks)', sdk, url));
  rows.push(await measure('timing client, iterating events', client, url));
  rows.push(await measure('timing client, result only', clientResultOnly, url));
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`${'path'.padEnd(width)}  ${'events/s'.padStart(10)}  ${'µs/event'.padStart(9)}  ${'ms'.padStart(8)}`);
  for (const r of rows) {
    console.log(`${r.name.padEnd(width)}  ${String(r.events_per_s).padStart(10)}  ${r.us_per_event.toFixed(2).padStart(9)}  ${r.median_ms.toFixed(0).padStart(8)}`);
  }
  const ours = rows.find((r) => r.name.startsWith('timing client, iterating'));
  console.log(`goal ≥ 30000 events/s through the client: ${ours.events_per_s >= 30_000 ? 'met' : 'NOT met'}`);
  await worker.terminate();
} else {
  serve();
}
