import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PREFLIGHT_PROMPT } from '@crucibleforge/core';
import { CANARY_PROBES, readFencedPrompt } from '@crucibleforge/judge';
import { startSimEndpoint, type SimAnswer, type SimEndpoint, type SimModelOptions, type SimRequestView } from '@crucibleforge/sim-endpoint';

const lastUser = (v: SimRequestView) => String([...v.messages].reverse().find((m) => m.role === 'user')?.content ?? '');

const SPEED_TEXT = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');

/**
 * The answer to a speed-benchmark prompt (they start with an 8-hex nonce in brackets): a long text, so the
 * decode speed of a run's speed measurement is defined. null for any other prompt.
 */
export function speedAnswer(v: SimRequestView): SimAnswer | null {
  return /^\[[0-9a-f]{8}\] /.test(lastUser(v)) ? { content: SPEED_TEXT } : null;
}

/** A model that solves every fixture case (and answers speed prompts at length). */
export function strongAnswer(v: SimRequestView): SimAnswer {
  const speed = speedAnswer(v);
  if (speed) return speed;
  const tools = v.messages.filter((m) => m.role === 'tool');
  if (v.tools.length > 0) {
    if (tools.length === 0) return { tool_calls: [{ name: 'get_temperature', arguments: { city: 'Oslo' } }] };
    if (tools.length === 1) return { tool_calls: [{ name: 'celsius_to_fahrenheit', arguments: { celsius: 10 } }] };
    return { content: 'It is 50 °F in Oslo.' };
  }
  const last = String(v.messages.at(-1)?.content ?? '');
  const sum = /(\d+) \+ (\d+)/.exec(last);
  if (sum) return { content: `Let me add.\nAnswer: ${Number(sum[1]) + Number(sum[2])}` };
  if (/capital of France/.test(last)) return { content: 'The capital of France is Paris.' };
  if (/add\(a, b\)/.test(last)) return { content: '```python\ndef add(a, b):\n    return a + b\n```' };
  return { content: 'ready' };
}

/**
 * A judge that follows the fence protocol (judge's own reader): correct when the fenced candidate states the
 * reference; canary probes answered as their expected verdict; pairwise prompts won by the answer that
 * states the reference.
 */
export function judgeAnswer(v: SimRequestView): SimAnswer {
  const user = String(v.messages.find((m) => m.role === 'user')?.content ?? '');
  const read = readFencedPrompt(user);
  if (!read) return { content: 'ready' };
  const reference = /# Reference answer\n([\s\S]*?)\n\n#/.exec(read.before)?.[1]?.trim() ?? '';
  const has = (text: string | undefined) => reference !== '' && (text ?? '').toLowerCase().includes(reference.toLowerCase());
  const a = read.blocks['ANSWER A'];
  if (a !== undefined) {
    const b = read.blocks['ANSWER B'];
    const winner = has(a) === has(b) ? 'tie' : has(a) ? 'A' : 'B';
    return { content: JSON.stringify({ winner, note: 'by agreement with the reference' }) };
  }
  const answer = read.blocks['CANDIDATE ANSWER'] ?? '';
  const probe = CANARY_PROBES.find((p) => p.answer === answer);
  const correct = probe ? probe.expected === 'correct' : has(answer);
  return { content: JSON.stringify({ correct, note: correct ? 'agrees with the reference' : 'differs' }) };
}

/** Sim pace for fixture models: replies in a few milliseconds. */
export const FAST = { first_token_base_ms: 1, decode_tps: 20_000, prefill_tps: 10_000_000 } as const;

/** Thinks until any budget runs out and ignores every thinking switch; answers only when told its reasoning was cut off. */
export function stubbornAnswer(v: SimRequestView): SimAnswer {
  const last = String(v.messages.at(-1)?.content ?? '');
  if (last === PREFLIGHT_PROMPT) return { content: 'ready' };
  const speed = speedAnswer(v);
  if (speed) return speed;
  if (/cut off/.test(last)) return strongAnswer({ ...v, tools: [], messages: v.messages.filter((m) => m.role === 'user').slice(0, 1) });
  return { reasoning: 'hmm, let me think again '.repeat(200), content: 'Answer: 0' };
}

/** The fixture models on one sim endpoint: strong, weak, judge, hosted (a priced copy of strong), stubborn, and `extra`. */
export async function startFixtureSim(extra: SimModelOptions[] = []): Promise<SimEndpoint> {
  return startSimEndpoint({
    models: [
      { id: 'strong', ...FAST, answer: strongAnswer },
      { id: 'weak', ...FAST, answer: (v) => speedAnswer(v) ?? { content: "I don't know." } },
      { id: 'judge', ...FAST, answer: judgeAnswer },
      { id: 'hosted', ...FAST, answer: strongAnswer },
      { id: 'stubborn', ...FAST, reasoning_encoding: 'reasoning_content', answer: stubbornAnswer },
      ...extra,
    ],
  });
}

/** models.yaml for the fixture sim: a local provider, a priced hosted one (key in HOSTED_KEY), the judge. */
export function fixtureConfig(url: string, extraModels = ''): string {
  return `# test config
providers:
  local:
    kind: lmstudio
    base_url: ${url}
  hosted:
    kind: openrouter
    base_url: ${url}
    api_key_env: HOSTED_KEY
    concurrency: 8
    prices: { input: 1, output: 4 }
models:
  strong: { provider: local, id: strong, context_length: 32768 }
  weak: { provider: local, id: weak, context_length: 32768 }
  judge: { provider: local, id: judge, context_length: 32768 }
  hosted: { provider: hosted, id: hosted, context_length: 32768, reasoning: off }
  stubborn: { provider: local, id: stubborn, context_length: 32768, reasoning: on }
${extraModels}judge:
  model: judge
`;
}

/** A temp dir holding models.yaml for the fixture sim; returns the dir, the config path and a results dir in it. */
export async function fixtureWorkspace(url: string, extraModels = ''): Promise<{ dir: string; config: string; results: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'cf-fixture-'));
  const config = join(dir, 'models.yaml');
  await writeFile(config, fixtureConfig(url, extraModels));
  return { dir, config, results: join(dir, 'results') };
}

/** A stored `pairwise` result of the fixture's strong and weak models (pairwise.json as the runner writes it). */
export const PAIRWISE_FILE_TEXT = JSON.stringify({
  schema_version: 1,
  summary: {
    models: ['strong', 'weak'],
    pairs: [{ a: 'strong', b: 'weak', wins: 3, ties: 0, losses: 1, win_rate: 0.75, ci95: [0.3, 0.95] }],
    ratings: [{ model: 'strong', rating: 1100 }, { model: 'weak', rating: 900 }],
    judge: null,
  },
  games: [],
});
