// Measures how precisely the sim endpoint keeps its token schedule: per-event lateness against the
// absolute deadlines (server truth) and what a client in the same process sees.
// Run: pnpm --filter @crucibleforge/sim-endpoint bench
import { readSse, startSimEndpoint } from '../dist/index.js';

const cases = [
  { name: '1000 tok @ 200/s, 1/event', tokens: 1000, tps: 200, per: 1 },
  { name: '2000 tok @ 1000/s, 1/event', tokens: 2000, tps: 1000, per: 1 },
  { name: '1200 tok @ 600/s, 4/event', tokens: 1200, tps: 600, per: 4 },
];

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const f = (x) => x.toFixed(3);

for (const c of cases) {
  const sim = await startSimEndpoint({
    models: [{ id: 'm', decode_tps: c.tps, tokens_per_event: c.per, answer: { content: 'abcd'.repeat(c.tokens) } }],
  });
  const response = await fetch(`${sim.url}/chat/completions`, {
    method: 'POST',
    body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'go' }] }),
  });
  const arrivals = [];
  for await (const event of readSse(response)) {
    if (event.type === 'data' && event.data.includes('abcd')) arrivals.push(event.at);
  }
  const truth = sim.truth[0];
  const due = (k) => truth.first_token_due_ms + ((k * c.per) / c.tps) * 1000;
  const late = truth.event_times_ms.map((t, k) => t - due(k));
  const clientLag = arrivals.map((t, k) => t - truth.event_times_ms[k]);
  const span = truth.last_token_ms - truth.first_token_ms;
  const ideal = (((truth.event_times_ms.length - 1) * c.per) / c.tps) * 1000;
  console.log(
    `${c.name}: events=${late.length} lateness ms median=${f(pct(late, 0.5))} p99=${f(pct(late, 0.99))} max=${f(Math.max(...late))} ` +
      `last=${f(late.at(-1))} | span=${f(span)} vs ideal ${f(ideal)} | client lag median=${f(pct(clientLag, 0.5))} p99=${f(pct(clientLag, 0.99))}`,
  );
  await sim.close();
}
