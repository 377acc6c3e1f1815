import { describe, expect, it } from 'vitest';
import { buildHaystack, estimateTokens, scatteredLines } from './haystack/build';
import { caseSeed, drawParams, prng } from './prng';
import { fillTemplate } from './template';

describe('prng and params', () => {
  it('is deterministic and seed-sensitive', () => {
    const a = prng(42);
    const b = prng(42);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(prng(43)()).not.toBe(xs[0]);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
  it('draws each param from its own stream, within range', () => {
    const p1 = drawParams({ n: { int: [10, 20] }, pet: { choice: ['cat', 'dog'] } }, 7);
    const p2 = drawParams({ pet: { choice: ['cat', 'dog'] }, n: { int: [10, 20] }, extra: { int: [1, 2] } }, 7);
    expect(p2.n).toBe(p1.n);
    expect(p2.pet).toBe(p1.pet);
    const many = Array.from({ length: 200 }, (_, s) => drawParams({ n: { int: [1, 6] } }, s).n as number);
    expect(new Set(many)).toEqual(new Set([1, 2, 3, 4, 5, 6]));
  });
  it('caseSeed differs per case and per run, and is stable', () => {
    expect(caseSeed(1, 'math-a')).toBe(caseSeed(1, 'math-a'));
    expect(caseSeed(1, 'math-a')).not.toBe(caseSeed(1, 'math-b'));
    expect(caseSeed(2, 'math-a')).not.toBe(caseSeed(1, 'math-a'));
    expect(caseSeed(1, 'math-a')).toBeGreaterThanOrEqual(0);
  });
});

describe('templates', () => {
  it('fills placeholders; a whole-placeholder keeps its type; unknown names throw', () => {
    expect(fillTemplate({ p: 'n = {{ n }}!', a: '{{ans}}', list: ['{{n}}'] }, { n: 5, ans: { x: 'y' } }, '')).toEqual({ p: 'n = 5!', a: { x: 'y' }, list: [5] });
    expect(() => fillTemplate('{{nope}}', {}, 'prompt')).toThrow('prompt: unknown placeholder {{nope}}');
  });
});

describe('haystack builder', () => {
  const spec = {
    style: 'chronicle' as const,
    tokens: 12_000,
    needles: [
      { text: 'The ferry toll was raised to 14 marks.', depth: 0.2 },
      { text: 'Correction from the toll clerks: the ferry toll is 17 marks.', depth: 0.8 },
    ],
    count: { text: 'A heron stood on the weir.', times: 9 },
  };
  it('is deterministic for a seed and different for another', () => {
    expect(buildHaystack(spec, 5).text).toBe(buildHaystack(spec, 5).text);
    expect(buildHaystack(spec, 6).text).not.toBe(buildHaystack(spec, 5).text);
  });
  it('reaches the size, places needles at their depth, and inserts the count exactly', () => {
    for (const style of ['chronicle', 'log', 'inventory'] as const) {
      const h = buildHaystack({ ...spec, style }, 11);
      expect(Math.abs(h.tokens / 12_000 - 1)).toBeLessThan(0.05);
      expect(estimateTokens(h.text)).toBe(h.tokens);
      const paras = h.text.split('\n\n');
      expect(paras[h.needleIndexes[0]!]).toBe(spec.needles[0]!.text);
      expect(paras[h.needleIndexes[1]!]).toBe(spec.needles[1]!.text);
      expect(h.needleIndexes[0]! / h.paragraphs).toBeCloseTo(0.2, 1);
      expect(h.needleIndexes[1]! / h.paragraphs).toBeCloseTo(0.8, 1);
      expect(paras.filter((p) => p === spec.count.text)).toHaveLength(9);
      expect(h.filler).not.toContain('ferry toll');
    }
  });
  it('scatters lines in order, each once as its own paragraph, spread over the whole document', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `${i + 1}. The lamp of house ${i + 1} is lit.`);
    const scattered = { style: 'log' as const, tokens: 12_000, scatter: { lines: `${lines.join('\n')}\n\n`, prefix: 'Posted: ' } };
    const h = buildHaystack(scattered, 4);
    expect(buildHaystack(scattered, 4).text).toBe(h.text);
    expect(scatteredLines(scattered)).toEqual(lines.map((l) => `Posted: ${l}`));
    const paras = h.text.split('\n\n');
    expect(h.scatterIndexes.map((i) => paras[i])).toEqual(lines.map((l) => `Posted: ${l}`));
    expect(h.scatterIndexes.every((x, i) => i === 0 || x > h.scatterIndexes[i - 1]!)).toBe(true);
    expect(h.scatterIndexes[0]! / h.paragraphs).toBeLessThan(0.25);
    expect(h.scatterIndexes[39]! / h.paragraphs).toBeGreaterThan(0.75);
    expect(Math.abs(h.tokens / 12_000 - 1)).toBeLessThan(0.05);
    expect(h.filler).not.toContain('Posted:');
    // more lines than gaps: every line still goes in, in order
    const many = buildHaystack({ style: 'chronicle', tokens: 500, scatter: { lines: lines.join('\n') } }, 1);
    expect(many.scatterIndexes.map((i) => many.text.split('\n\n')[i])).toEqual(lines);
  });
});

describe('derive runs once per variant', () => {
  it('materialising the same case and seed again reuses the derive result (per sandbox); another seed runs it', async () => {
    const { parseCaseFile } = await import('./loader');
    const { materializeCase } = await import('./materialize');
    const def = parseCaseFile(
      `id: math-x\ntitle: x y z\ncategory: math\ndifficulty: easy\nprompt: "n={{n}} k={{k}}"\nparams: { n: { int: [1, 9] } }\nderive:\n  program: print(1)\nmax_tokens: 100\ngrader: { type: number }\nreference: {}\nverify: { program: "print(1)" }\n`,
      'math/x.yaml',
    ).cases[0]!.def;
    const stdins: string[] = [];
    const sandbox = {
      sandboxed: true,
      run: async (req: { stdin?: string }) => {
        stdins.push(req.stdin ?? '');
        const seed = (JSON.parse(req.stdin ?? '{}') as { seed: number }).seed;
        return { status: 'ok' as const, exit_code: 0, signal: null, stdout: `{"answer": ${seed * 2}, "vars": {"k": ${seed}}}\n`, stderr: '', stdout_truncated: false, stderr_truncated: false, wall_ms: 1, cpu_ms: 1, sandboxed: true };
      },
      runPair: () => Promise.reject(new Error('unused')),
    };
    const a = await materializeCase(def, 4, { sandbox });
    const b = await materializeCase(def, 4, { sandbox });
    expect(stdins).toHaveLength(1);
    expect(b.turns).toEqual(a.turns);
    expect(b.reference.answer).toBe(8);
    b.vars.k = 99; // a consumer's edit does not leak into the cache
    expect((await materializeCase(def, 4, { sandbox })).vars.k).toBe(4);
    await materializeCase(def, 5, { sandbox });
    expect(stdins).toHaveLength(2);
  });
});
