/**
 * Test helpers (not exported): the sim endpoint with a strong and a weak model, a models.yaml-shaped config
 * pointing at it with a decoy API key, and a small real cases directory (number-graded, no sandbox needed).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { Category } from '@crucibleforge/core';
import type { RunnerConfigData } from '@crucibleforge/runner';
import type { GuiServerOptions } from './server';
import { startSimEndpoint, type SimEndpoint, type SimRequestView } from '@crucibleforge/sim-endpoint';
import { speedAnswer } from '@crucibleforge/testkit';

/** The key the sim endpoint demands; it must never appear in anything the GUI sends. */
export const DECOY_KEY = 'sk-decoy-7f3a9c1e5b2d4f60a8e1c3b5d7f9a2c4';
export const KEY_ENV = 'SIM_GUI_TEST_KEY';
/** Markup a model might write; the page must show it as text and never run it. */
export const XSS = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

interface TestCase {
  id: string;
  category: Category;
  difficulty: 'easy' | 'hard';
  title: string;
  prompt: string;
  answer: number;
}

export const TEST_CASES: TestCase[] = [
  { id: 'math-small-sum', category: 'math', difficulty: 'easy', title: 'A small sum', prompt: 'What is 17 + 25?', answer: 42 },
  { id: 'math-product', category: 'math', difficulty: 'hard', title: 'A product', prompt: 'What is 12 times 13?', answer: 156 },
  { id: 'reasoning-sisters', category: 'reasoning', difficulty: 'easy', title: 'Sisters', prompt: 'Ann has 3 brothers and each brother has 2 sisters. How many sisters does Ann have?', answer: 1 },
  { id: 'reasoning-clock-hands', category: 'reasoning', difficulty: 'hard', title: 'Clock hands', prompt: 'How many times do the hands of a clock overlap in 12 hours?', answer: 11 },
];

function caseYaml(c: TestCase): string {
  return [
    `id: ${c.id}`,
    `title: ${c.title}`,
    `category: ${c.category}`,
    `difficulty: ${c.difficulty}`,
    ...(c.difficulty === 'hard' ? ['why_hard: a made-up hard case for the GUI tests'] : []),
    'prompt: |',
    `  ${c.prompt} End with "Answer: <integer>".`,
    'max_tokens: 64',
    'grader:',
    '  type: number',
    'reference:',
    `  answer: ${c.answer}`,
    'verify:',
    `  program: print(${c.answer})`,
    '',
  ].join('\n');
}

/** A small real cases directory: the cases above plus profiles `quick` (all) and `mathonly`. */
export function writeCasesDir(dir: string, cases: TestCase[] = TEST_CASES): string {
  for (const c of cases) {
    mkdirSync(join(dir, c.category), { recursive: true });
    writeFileSync(join(dir, c.category, `${c.id}.yaml`), caseYaml(c));
  }
  mkdirSync(join(dir, 'profiles'), { recursive: true });
  writeFileSync(join(dir, 'profiles', 'quick.yaml'), 'name: quick\ndescription: every test case\ninclude:\n  - all: true\n');
  writeFileSync(join(dir, 'profiles', 'mathonly.yaml'), 'name: mathonly\ndescription: the maths cases\ninclude:\n  - categories: [math]\n');
  return dir;
}

function answerFor(strong: boolean) {
  return (request: SimRequestView) => {
    const prompt = String(request.messages.at(-1)?.content ?? '');
    const c = TEST_CASES.find((t) => prompt.includes(t.prompt));
    if (!c) return speedAnswer(request) ?? { content: 'Hello.' };
    return strong
      ? { reasoning: `Working it out step by step for ${c.id}.`, content: `Let me see.\nAnswer: ${c.answer}` }
      : c.id === 'math-small-sum'
        ? { content: 'Answer: 42' }
        : c.id === 'reasoning-clock-hands'
          ? { content: `Twelve, surely. ${XSS}\nAnswer: 7` }
          : { content: 'I think so.\nAnswer: 7' };
  };
}

export async function startTestSim(): Promise<SimEndpoint> {
  return startSimEndpoint({
    api_key: DECOY_KEY,
    models: [
      { id: 'sim-strong', decode_tps: 4000, first_token_base_ms: 2, reasoning_encoding: 'reasoning_content', context_length: 32768, answer: answerFor(true) },
      { id: 'sim-weak', decode_tps: 3000, first_token_base_ms: 2, context_length: 8192, answer: answerFor(false) },
    ],
  });
}

export function testConfig(simUrl: string, extra: Partial<RunnerConfigData['models']> = {}): RunnerConfigData {
  return {
    providers: {
      sim: { kind: 'generic', base_url: simUrl, api_key_env: KEY_ENV, concurrency: 2, prices: { input: 0.5, output: 1.5 } },
    },
    models: {
      strong: { provider: 'sim', id: 'sim-strong', reasoning: 'auto', reasoning_factor: 4, enabled: true, recovery: true, temperature: 0, context_length: 32768 },
      weak: { provider: 'sim', id: 'sim-weak', reasoning: 'off', reasoning_factor: 4, enabled: true, recovery: true, temperature: 0 },
      ...extra,
    } as RunnerConfigData['models'],
  };
}

/** A GUI on a free loopback port over the test sim, with the decoy key in its environment. */
export function testGuiOptions(simUrl: string, resultsDir: string, casesDir: string): GuiServerOptions {
  return { port: 0, resultsDir, casesDir, config: testConfig(simUrl), env: { [KEY_ENV]: DECOY_KEY } };
}

export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTP request with the path sent exactly as given (fetch would normalise `../`) and any headers
 * (Host, Origin, Sec-Fetch-Site). Every body is also passed to `seen` so tests can grep all responses.
 */
export function rawRequest(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  seen?: string[],
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          seen?.push(`${JSON.stringify(res.headers)}\n${body}`);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Reads a server-sent-events stream to its end; returns the events as { event, data } in order. */
export async function readEvents(url: string, headers: Record<string, string> = {}, seen?: string[]): Promise<{ event: string; data: unknown }[]> {
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers } });
  const text = await response.text();
  seen?.push(text);
  const events: { event: string; data: unknown }[] = [];
  for (const block of text.split('\n\n')) {
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (event && data !== undefined) events.push({ event, data: JSON.parse(data) as unknown });
  }
  return events;
}
