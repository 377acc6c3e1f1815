/**
 * Test helpers for the runner commands (not part of the CLI): simulated models that answer the runner's
 * fixture cases (packages/runner/src/__fixtures__/cases), a judge that follows the fence protocol, and a
 * models.yaml pointing at them.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CANARY_PROBES } from '@crucibleforge/judge';
import { startSimEndpoint, type SimAnswer, type SimEndpoint, type SimModelOptions, type SimRequestView } from '@crucibleforge/sim-endpoint';

export const FIXTURE_CASES = fileURLToPath(new URL('../../../packages/runner/src/__fixtures__/cases', import.meta.url));

const text = (v: SimRequestView) => v.messages.map((m) => m.content ?? '').join('\n');

/** A model that solves every fixture case. */
export function strongAnswer(v: SimRequestView): SimAnswer {
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

/** A judge that reads the fenced candidate answer and compares it with the reference. */
function fenced(user: string, label: string, token: string): string | null {
  const begin = `<<<BEGIN ${label} ${token}>>>\n`;
  const at = user.indexOf(begin);
  if (at < 0) return null;
  const start = at + begin.length;
  return user.slice(start, user.indexOf(`\n<<<END ${label} ${token}>>>`, start));
}

export function judgeAnswer(v: SimRequestView): SimAnswer {
  const user = String(v.messages.find((m) => m.role === 'user')?.content ?? '');
  const token = /with token ([0-9a-f]{16})\./.exec(user)?.[1];
  if (!token) return { content: 'ready' };
  const reference = /# Reference answer\n([\s\S]*?)\n\n#/.exec(user)?.[1]?.trim() ?? '';
  const has = (text: string | null) => reference !== '' && (text ?? '').toLowerCase().includes(reference.toLowerCase());
  const a = fenced(user, 'ANSWER A', token);
  if (a !== null) {
    const b = fenced(user, 'ANSWER B', token);
    const winner = has(a) === has(b) ? 'tie' : has(a) ? 'A' : 'B';
    return { content: JSON.stringify({ winner, note: 'by agreement with the reference' }) };
  }
  const answer = fenced(user, 'CANDIDATE ANSWER', token) ?? '';
  const probe = CANARY_PROBES.find((p) => p.answer === answer);
  const correct = probe ? probe.expected === 'correct' : has(answer);
  return { content: JSON.stringify({ correct, note: correct ? 'agrees with the reference' : 'differs' }) };
}

const fast = { first_token_base_ms: 1, decode_tps: 20_000, prefill_tps: 10_000_000 };

/** Thinks until any budget runs out and ignores every thinking switch; answers only when told its reasoning was cut off. */
export function stubbornAnswer(v: SimRequestView): SimAnswer {
  const last = String(v.messages.at(-1)?.content ?? '');
  if (/single word/.test(last)) return { content: 'ready' };
  if (/cut off/.test(last)) return strongAnswer({ ...v, tools: [], messages: v.messages.filter((m) => m.role === 'user').slice(0, 1) });
  return { reasoning: 'hmm, let me think again '.repeat(200), content: 'Answer: 0' };
}

export async function startFixtureSim(extra: SimModelOptions[] = []): Promise<SimEndpoint> {
  return startSimEndpoint({
    models: [
      { id: 'strong', ...fast, answer: strongAnswer },
      { id: 'weak', ...fast, answer: { content: "I don't know." } },
      { id: 'judge', ...fast, answer: judgeAnswer },
      { id: 'hosted', ...fast, answer: strongAnswer },
      { id: 'stubborn', ...fast, reasoning_encoding: 'reasoning_content', answer: stubbornAnswer },
      ...extra,
    ],
  });
}

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

/** A temp dir holding models.yaml for the fixture sim; returns the dir and the config path. */
export async function fixtureWorkspace(url: string, extraModels = ''): Promise<{ dir: string; config: string; results: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'cf-cli-run-'));
  const config = join(dir, 'models.yaml');
  await writeFile(config, fixtureConfig(url, extraModels));
  return { dir, config, results: join(dir, 'results') };
}
