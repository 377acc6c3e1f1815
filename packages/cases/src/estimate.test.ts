import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN_RATES, estimateCase, estimateRun } from './estimate';
import { parseCaseFile } from './loader';

const load = (yaml: string, category: string) => {
  const r = parseCaseFile(yaml, `${category}/x.yaml`);
  if (!r.cases[0]) throw new Error(JSON.stringify(r.problems));
  return r.cases[0];
};
const head = (category: string) => `id: ${category}-x\ntitle: x y z\ncategory: ${category}\ndifficulty: easy\n`;

describe('run-time estimate from token budgets', () => {
  it('single answer: max_tokens ÷ decode + prompt ÷ prefill', () => {
    const c = load(`${head('math')}prompt: "${'a'.repeat(3998)}"\nmax_tokens: 7000\ngrader: { type: number }\nreference: { answer: 1 }\nverify: { program: "print(1)" }\n`, 'math');
    const e = estimateCase(c);
    expect(e.prompt_tokens).toBe(1000); // 3998 characters + the newlines joining system and tools
    expect(e.generate_s).toBeCloseTo(100, 6);
    expect(e.prefill_s).toBeCloseTo(1, 6);
    expect(e.judge_s).toBe(0);
    expect(estimateCase(c, DEFAULT_RUN_RATES, 1400).generate_s).toBeCloseTo(20, 6); // a profile's max_tokens override
  });
  it('tool conversations re-read the prompt each turn and spend a little per intermediate turn', () => {
    const c = load(
      `${head('tooluse')}prompt: "${'b'.repeat(388)}"\nmax_tokens: 700\ntools: [{ name: f }]\ngrader: { type: tool_calls, calls: [{ name: f }] }\nreference: { calls: [[{ name: f, arguments: {} }], [{ name: f, arguments: {} }]], reply: done }\n`,
      'tooluse',
    );
    const e = estimateCase(c);
    expect(e.assistant_turns).toBe(3);
    expect(e.prompt_tokens).toBe(101); // 388 + 2 newlines + '[{"name":"f"}]' = 404 characters
    expect(e.generate_s).toBeCloseTo((700 + 2 * 256) / 70, 6);
    expect(e.prefill_s).toBeCloseTo((101 * 3) / 1000, 6);
  });
  it('judged cases add one judge call; haystacks count at their target size; derive placeholders get an allowance', () => {
    const judged = load(`${head('prose')}prompt: "${'c'.repeat(400)}"\nmax_tokens: 1400\ngrader: { type: judge }\nreference: { answer: "${'d'.repeat(400)}", facts: ["${'e'.repeat(399)}"] }\n`, 'prose');
    expect(estimateCase(judged).judge_s).toBeCloseTo((600 + 101 + 100 + 100 + 1400) / 1000 + 1024 / 70, 6);
    const hay = load(`${head('longctx')}prompt: "{{haystack}} Q?"\nmax_tokens: 70\nhaystack: { style: log, tokens: 16000, seed: 1, count: { text: "An owl.", times: 3 } }\ngrader: { type: number }\nreference: { answer: 3 }\n`, 'longctx');
    expect(estimateCase(hay).prompt_tokens).toBe(16000 + 5);
    const seeded = load(`${head('math')}prompt: "{{a}} {{b}} {{a}}"\nderive: { program: "print(1)" }\nmax_tokens: 70\ngrader: { type: number }\nreference: {}\nverify: { program: "print(1)" }\n`, 'math');
    expect(estimateCase(seeded).prompt_tokens).toBe(5 + 2 * 200);
  });
  it('a run sums its cases', () => {
    const c = load(`${head('math')}prompt: q\nmax_tokens: 700\ngrader: { type: number }\nreference: { answer: 1 }\nverify: { program: "print(1)" }\n`, 'math');
    const run = estimateRun([c, c], DEFAULT_RUN_RATES, { max_tokens: { math: 1400 } });
    expect(run.cases).toBe(2);
    expect(run.generate_s).toBeCloseTo(40, 6);
    expect(run.total_s).toBeCloseTo(run.generate_s + run.prefill_s + run.judge_s, 9);
  });
});
