import { describe, expect, it } from 'vitest';
import { cachedCalibration } from './calibration';
import { grade } from './grade';
import { parseCaseFile } from './loader';
import { materializeCase } from './materialize';
import { contextSkip } from './planned';
import { sandboxFor, testSandbox } from './test-sandbox';

async function concrete(yaml: string, category: string) {
  const r = parseCaseFile(yaml, `${category}/x.yaml`);
  if (!r.cases[0]) throw new Error(JSON.stringify(r.problems));
  return materializeCase(r.cases[0].def, null, { sandbox: (await testSandbox()).sandbox ?? undefined });
}

const JUDGED = `id: prose-x\ntitle: x y z\ncategory: prose\ndifficulty: easy\nprompt: Explain tides.\nmax_tokens: 100\ngrader: { type: judge, focus: mention the moon }\nreference: { answer: "The moon's gravity pulls the oceans.", facts: [the moon's gravity] }\n`;

describe('grade dispatch', () => {
  it('judged cases wait for the judge with the reference and facts; an empty reply fails at once', async () => {
    const c = await concrete(JUDGED, 'prose');
    expect(await grade(c, { content: 'The moon does it.' })).toEqual({
      status: 'pending',
      reason: 'waits for the judge',
      details: { reference: "The moon's gravity pulls the oceans.", facts: ["the moon's gravity"], focus: 'mention the moon' },
    });
    expect(await grade(c, { content: '<think>hmm</think>  ' })).toMatchObject({ status: 'fail', reason: 'empty reply' });
  });
  it('marks failures of a reply cut off by the budget as TRUNCATED', async () => {
    const c = await concrete(`id: instruct-x\ntitle: x y z\ncategory: instruct\ndifficulty: easy\nprompt: q\nmax_tokens: 100\ngrader: { type: checks, checks: [{ check: ends_with, text: END }] }\nreference: { reply: ok END }\n`, 'instruct');
    expect((await grade(c, { content: 'ok and then', finish_reason: 'length' })).reason).toBe('TRUNCATED (token budget spent): check 1 ends_with failed: ends with "ok and then", expected "END"');
  });
  it('a small context skips (never fails) long cases', async () => {
    const c = await concrete(`id: longctx-x\ntitle: x y z\ncategory: longctx\ndifficulty: easy\nprompt: "{{haystack}} How many?"\nmax_tokens: 100\nhaystack: { style: log, tokens: 4000, seed: 1, count: { text: "An owl.", times: 3 } }\ngrader: { type: number }\nreference: { answer: 3 }\n`, 'longctx');
    expect(c.min_context).toBe(c.prompt_tokens + 100);
    expect(contextSkip(c, 2048)).toEqual({ status: 'skipped', reason: `needs ${c.min_context} tokens of context, model has 2048` });
    expect(contextSkip(c, c.min_context! + 10, c.max_tokens * 4)?.reason).toBe(`needs ${c.min_context! + 3 * c.max_tokens} tokens of context (${c.max_tokens * 4}-token answer budget), model has ${c.min_context! + 10}`);
    expect(contextSkip(c, 32768)).toBeNull();
    expect(contextSkip(c, null)).toBeNull();
  });
  it('complexity cases calibrate once per sandbox when no limit is given', async (ctx) => {
    const sandbox = await sandboxFor(ctx);
    const tests = Array.from({ length: 8 }, (_, i) => `    - { call: "f(${i})", expect: ${i} }`).join('\n');
    const c = await concrete(
      `id: coding-x\ntitle: x y z\ncategory: coding\ndifficulty: easy\nprompt: q\nmax_tokens: 100\ngrader:\n  type: code\n  language: python\n  function: f\n  complexity: { floor_s: 1.5 }\n  tests:\n${tests}\nreference: { solution: "def f(x): return x" }\nverify:\n  wrong_solutions: [{ why: slow, too_slow: true, code: "def f(x): return x" }]\n`,
      'coding',
    );
    const slow = '```python\nimport time\ndef f(x):\n    time.sleep(0.4)\n    return x\n```';
    const r = await grade(c, { content: slow }, { sandbox });
    expect(r).toMatchObject({ status: 'fail', reason: 'TIMEOUT after 1.5 s (in test 4)' });
    expect(r.details).toMatchObject({ timeout_ms: 1500 });
    expect(await grade(c, { content: '```python\ndef f(x):\n    return x\n```' }, { sandbox })).toMatchObject({ status: 'pass' });
    expect((await grade(c, { content: slow }, { sandbox, timeLimitMs: 10_000 })).status).toBe('pass');
    expect(cachedCalibration(c, sandbox)).toBe(cachedCalibration(c, sandbox));
    expect((await cachedCalibration(c, sandbox)).limit_ms).toBe(1500);
  }, 60_000);
});
