import type { Sandbox } from '@crucibleforge/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseCaseFile } from '../loader';
import type { LoadedCase } from '../schema/case';
import { sandboxFor } from '../test-sandbox';
import { verifyCases, verifyCost } from './index';
import { formatVerifySummary } from './report';

function load(yaml: string, category: string): LoadedCase {
  const r = parseCaseFile(yaml, `${category}/x.yaml`);
  if (!r.cases[0]) throw new Error(JSON.stringify(r.problems));
  return r.cases[0];
}

const tests8 = Array.from({ length: 8 }, (_, i) => `    - { call: "double(${i})", expect: ${2 * i} }`).join('\n');
const codeCase = (solution: string, wrong: string, extra = '') => `id: coding-double
title: Double it
category: coding
difficulty: easy
prompt: Write double(x).
max_tokens: 100
grader:
  type: code
  language: python
  function: double
  tests:
${tests8}
${extra}reference:
  solution: |
    ${solution}
verify:
  wrong_solutions:
    - why: wrong
      code: |
        ${wrong}
`;


/** The problems other than the corpus minimums (these tests are about the other proofs). */
const own = (problems: string[]) => problems.filter((p) => !p.startsWith('corpus:'));

async function problemsOfIn(sb: Sandbox, c: LoadedCase): Promise<string[]> {
  return own((await verifyCases([c], { sandbox: sb })).results[0]!.problems);
}

describe('verify catches broken cases', () => {
  let sandbox: Sandbox;
  beforeEach(async (ctx) => {
    sandbox = await sandboxFor(ctx);
  });
  const problemsOf = async (c: LoadedCase) => {
    const report = await verifyCases([c], { sandbox });
    return own(report.results[0]!.problems);
  };

  it('a wrong solution that passes, a failing reference', async () => {
    expect(await problemsOf(load(codeCase('def double(x): return 2 * x', 'def double(x): return x + x'), 'coding'))).toEqual([
      'wrong solution 1 (wrong) PASSES the tests — the tests cannot catch it',
    ]);
    expect((await problemsOf(load(codeCase('def double(x): return 3 * x', 'def double(x): return x'), 'coding')))[0]).toBe(
      'reference solution fails: test 2 failed: expected 2, got 3',
    );
  });

  it('too few tests', async () => {
    const yaml = codeCase('def double(x): return 2 * x', 'def double(x): return x').replace(/    - \{ call: "double\([2-7]\)".*\n/g, '');
    expect(await problemsOf(load(yaml, 'coding'))).toEqual(['2 tests; coding cases need at least 8']);
  });

  it('a too_slow control that fails for another reason than time', async () => {
    const yaml = codeCase('def double(x): return 2 * x', 'def double(x): return x', '  complexity: { floor_s: 1 }\n').replace('    - why: wrong\n', '    - why: wrong\n      too_slow: true\n');
    const [problem] = await problemsOf(load(yaml, 'coding'));
    expect(problem).toMatch(/^wrong solution 1 \(wrong\) should fail by TIMEOUT, but: test 2 failed/);
  });

  it('calibrates a complexity case and fails the slow control by TIMEOUT', async () => {
    const yaml = codeCase('def double(x): return 2 * x', 'def double(x):\n            import time\n            time.sleep(5)\n            return 2 * x', '  complexity: { floor_s: 1, multiple: 3 }\n').replace(
      '    - why: wrong\n',
      '    - why: wrong\n      too_slow: true\n',
    );
    const report = await verifyCases([load(yaml, 'coding')], { sandbox });
    expect(own(report.results[0]!.problems)).toEqual([]);
    expect(report.calibrations[0]).toMatchObject({ case_id: 'coding-double', multiple: 3, floor_ms: 1000, reference_passed: true });
    const cal = report.calibrations[0]!;
    expect(cal.reference_ms).toBe(cal.reference_cpu_ms ?? cal.reference_wall_ms);
    expect(cal.limit_ms).toBe(Math.max(1000, Math.ceil(3 * cal.reference_ms), Math.ceil(3 * cal.reference_wall_ms)));
    expect(formatVerifySummary(report)).toBe('1 cases checked, 1 with problems (1 reference solutions executed, 0 answers re-derived, 1 negative controls failed as expected, 0 haystacks rebuilt)');
  });

  it('a maths answer the brute force does not re-derive, and a missing program', async () => {
    const math = (program: string) =>
      load(`id: math-x\ntitle: x y z\ncategory: math\ndifficulty: easy\nprompt: q\nmax_tokens: 100\ngrader: { type: number }\nreference: { answer: 10 }\n${program}`, 'math');
    expect(await problemsOf(math('verify:\n  program: print(11)\n'))).toEqual(['re-derived 11, but the reference answer is 10']);
    expect(await problemsOf(math('verify:\n  program: |\n    print(\'{"answer": "%d"}\' % sum(range(5)))\n'))).toEqual([]);
    expect(await problemsOf(math('verify:\n  program: |\n    print(\'{"answer": "10"}\')\n'))).toEqual(['the verify program contains the answer literal "10": it must compute the answer, not print it']);
    expect(await problemsOf(math(''))).toEqual(['math cases need verify.program (a brute-force or exhaustive re-derivation)']);
  });

  it('a puzzle with two solutions', async () => {
    const c = load(
      `id: reasoning-x\ntitle: x y z\ncategory: reasoning\ndifficulty: easy\nprompt: q\nmax_tokens: 100\ngrader: { type: exact }\nreference: { answer: a }\nverify:\n  expect: unique_solution\n  program: 'print("{\\"solutions\\": [\\"a\\", \\"b\\"], \\"clues\\": [\\"q\\"]}")'\n`,
      'reasoning',
    );
    expect(await problemsOf(c)).toEqual(['the puzzle has 2 solutions, not exactly one (e.g. a and b)']);
  });

  it('seeded derive failures name the seed', async () => {
    const c = load(
      `id: math-x\ntitle: x y z\ncategory: math\ndifficulty: easy\nprompt: "n={{n}}"\nparams: { n: { int: [1, 3] } }\nderive:\n  program: raise SystemExit("boom")\nmax_tokens: 100\ngrader: { type: number }\nreference: {}\nverify: { seeds: [5], program: "print(1)" }\n`,
      'math',
    );
    expect((await problemsOf(c))[0]).toMatch(/^seed 5: math-x: derive \(seed 5\) error: boom/);
  });
});

describe('verify without a sandbox', () => {
  it('checks haystacks, tool references and instruction references', async () => {
    const hay = load(
      `id: longctx-x\ntitle: x y z\ncategory: longctx\ndifficulty: easy\nprompt: "{{haystack}} Q?"\nmax_tokens: 100\nhaystack:\n  style: chronicle\n  tokens: 2000\n  seed: 3\n  count: { text: "The weather held fair for most of the day.", times: 2 }\n  scatter: { lines: \"Notice 1: the east gate is shut.\\nNotice 1: the east gate is shut.\" }\ngrader: { type: number }\nreference: { answer: 2 }\n`,
      'longctx',
    );
    const tool = load(
      `id: tooluse-x\ntitle: x y z\ncategory: tooluse\ndifficulty: easy\nprompt: q\nmax_tokens: 100\ntools:\n  - { name: f, parameters: { type: object, properties: { n: { type: integer } }, required: [n] } }\ngrader: { type: tool_calls, calls: [{ name: f, args: { n: { present: true } } }] }\nreference: { calls: [[{ name: f, arguments: { n: "3" } }]] }\n`,
      'tooluse',
    );
    const instruct = load(
      `id: instruct-x\ntitle: x y z\ncategory: instruct\ndifficulty: easy\nprompt: q\nmax_tokens: 100\ngrader: { type: checks, checks: [{ check: word_count, exactly: 3 }] }\nreference: { reply: one two }\nverify:\n  wrong_replies: [{ why: right, reply: one two three }]\n`,
      'instruct',
    );
    const report = await verifyCases([hay, tool, instruct]);
    const [h, t, i] = report.results.map((r) => own(r.problems));
    expect(h![0]).toMatch(/^counted sentence occurs \d+ times, expected 2$/);
    expect(h![1]).toBe('scattered line 1 occurs 2 times, expected once');
    expect(t).toEqual(['reference.calls[0][0] (f): arguments.n: expected integer, got "3"']);
    expect(i).toEqual(['the reference fails its own grader: check 1 word_count failed: 2 words, expected exactly 3', 'wrong reply 1 (right) PASSES the grader']);
    expect(report.haystacks).toBe(1);
    expect(report.problems).toBe(3);
    expect(report.results[0]!.problems).toContain('corpus: 0 right_replies; every auto-graded case needs at least 3 (distinct realistic styles)');
  });
});

describe('seeded negative controls are filled like the prompt (same seed)', () => {
  const seededExact = (wrong: string) =>
    load(
      `id: instruct-x\ntitle: x y z\ncategory: instruct\ndifficulty: easy\nprompt: "Who? {{who}}"\nparams: { who: { choice: [Ilse, Tam, Oona] }, other: { choice: [Bram] } }\nmax_tokens: 100\ngrader: { type: exact }\nreference: { answer: "{{who}}" }\nverify:\n  seeds: [1, 2]\n  wrong_replies:\n${wrong}`,
      'instruct',
    );
  it('a wrong reply that is right once filled is caught, for every seed', async () => {
    const r = await verifyCases([seededExact('    - { why: same as reference, reply: "Answer: {{who}}" }\n')]);
    // a literal "{{who}}" would fail the grader and count as a negative control that proves nothing
    expect(own(r.results[0]!.problems)).toEqual(['seed 1: wrong reply 1 (same as reference) PASSES the grader', 'seed 2: wrong reply 1 (same as reference) PASSES the grader']);
  });
  it('a filled wrong reply that fails counts; an unknown placeholder is a problem naming the field', async () => {
    const ok = await verifyCases([seededExact('    - { why: another name, reply: "Answer: {{other}}" }\n')]);
    expect(ok.results[0]!.negative_controls).toBe(2);
    const bad = await verifyCases([seededExact('    - { why: typo, reply: "Answer: {{whom}}" }\n')]);
    expect(bad.results[0]!.problems).toContain('seed 1: verify.wrong_replies[0].reply: unknown placeholder {{whom}}');
  });
  it('wrong calls are filled too', async () => {
    const tool = load(
      `id: tooluse-x\ntitle: x y z\ncategory: tooluse\ndifficulty: easy\nprompt: "Weather in {{city}}?"\nparams: { city: { choice: [Varn, Ostrel] } }\nmax_tokens: 100\ntools:\n  - { name: weather, parameters: { type: object, properties: { city: { type: string } } } }\ngrader: { type: tool_calls, calls: [{ name: weather, args: { city: "{{city}}" } }] }\nreference: { calls: [[{ name: weather, arguments: { city: "{{city}}" } }]] }\nverify:\n  seeds: [1]\n  wrong_replies:\n    - { why: same call, calls: [[{ name: weather, arguments: { city: "{{city}}" } }]] }\n`,
      'tooluse',
    );
    expect(own((await verifyCases([tool])).results[0]!.problems)).toEqual(['seed 1: wrong reply 1 (same call) PASSES the grader']);
  });
  it('wrong solutions of a seeded code case are filled (a literal {{k}} is a Python set and fails for the wrong reason)', async (ctx) => {
    const sandbox = await sandboxFor(ctx);
    const yaml = codeCase('def double(x): return x * {{k}} // {{k}} * 2', 'def double(x): return x * {{k}} // {{k}} * 2').replace('prompt: Write double(x).', 'prompt: "Write double(x). {{k}}"\nparams: { k: { int: [2, 5] } }');
    expect(await problemsOfIn(sandbox, load(yaml, 'coding'))).toEqual(['seed 1: wrong solution 1 (wrong) PASSES the tests — the tests cannot catch it', 'seed 2: wrong solution 1 (wrong) PASSES the tests — the tests cannot catch it', 'seed 3: wrong solution 1 (wrong) PASSES the tests — the tests cannot catch it']);
  });
});

describe('scheduling', () => {
  const math = (id: string, extra = '') => load(`id: math-${id}\ntitle: x y z\ncategory: math\ndifficulty: easy\nprompt: q\nmax_tokens: 100\ngrader: { type: number }\nreference: { answer: 10 }\nverify:\n  program: print(5 + 5)\n${extra}`, 'math');
  const instruct = (id: string) =>
    load(`id: instruct-${id}\ntitle: x y z\ncategory: instruct\ndifficulty: easy\nprompt: q\nmax_tokens: 100\ngrader: { type: checks, checks: [{ check: word_count, exactly: 2 }] }\nreference: { reply: one two }\n`, 'instruct');
  it('cases without sandbox work finish without waiting for the sandbox; results keep the input order', async () => {
    let release: (s: Sandbox) => void = () => {};
    const gate = new Promise<Sandbox>((resolve) => (release = resolve));
    const finished: string[] = [];
    const fake: Sandbox = {
      sandboxed: true,
      run: async () => ({ status: 'ok', exit_code: 0, signal: null, stdout: '10\n', stderr: '', stdout_truncated: false, stderr_truncated: false, wall_ms: 5, cpu_ms: 1, sandboxed: true }),
      runPair: () => Promise.reject(new Error('not used')),
    };
    const done = verifyCases([math('a'), instruct('b'), math('c'), instruct('d')], {
      sandbox: () => gate,
      onResult: (r) => {
        finished.push(r.id);
        if (finished.length === 2) release(fake); // the sandbox only arrives once both light cases are done
      },
    });
    const report = await done;
    expect(finished.slice(0, 2)).toEqual(['instruct-b', 'instruct-d']);
    expect(report.results.map((r) => r.id)).toEqual(['math-a', 'instruct-b', 'math-c', 'instruct-d']);
    expect(report.results.map((r) => r.sandbox_ms)).toEqual([5, 0, 5, 0]);
    expect(report.rederived).toBe(2);
  });
  it('the costliest sandbox cases go first: complexity with too_slow controls, then code, then seeded programs', () => {
    const code = (extra: string) => load(codeCase('def double(x): return 2 * x', 'def double(x): return x', extra), 'coding');
    const complexity = load(
      codeCase('def double(x): return 2 * x', 'def double(x): return x', '  complexity: { floor_s: 1 }\n').replace('    - why: wrong\n', '    - why: wrong\n      too_slow: true\n'),
      'coding',
    );
    const costs = [verifyCost(complexity), verifyCost(code('')), verifyCost(math('s', '  seeds: [1, 2]\nparams: { n: { int: [1, 3] } }\n')), verifyCost(math('u')), verifyCost(instruct('x'))];
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    expect(new Set(costs).size).toBe(5);
  });
  it('right_replies must pass: one that fails its grader is a problem naming the reason', async () => {
    const c = load(
      `id: instruct-x\ntitle: x y z\ncategory: instruct\ndifficulty: easy\nprompt: q\nmax_tokens: 100\ngrader: { type: checks, checks: [{ check: word_count, exactly: 3 }] }\nreference: { reply: one two three }\nverify:\n  right_replies: [{ why: also three, reply: four five six }, { why: too long, reply: four five six seven }]\n`,
      'instruct',
    );
    const report = await verifyCases([c]);
    expect(own(report.results[0]!.problems)).toEqual(['right reply 2 (too long) FAILS the grader: check 1 word_count failed: 4 words, expected exactly 3']);
    expect(report.negative_controls).toBe(0);
  });
});

describe('the conformance corpus and proofs that cannot be faked', () => {
  const exactCase = (verify: string) =>
    load(`id: instruct-x\ntitle: x y z\ncategory: instruct\ndifficulty: easy\nprompt: Which colour?\nmax_tokens: 100\ngrader: { type: exact }\nreference: { answer: blue }\nverify:\n${verify}`, 'instruct');
  const replies = (field: string, n: number, reply: (i: number) => string) =>
    `  ${field}:\n${Array.from({ length: n }, (_, i) => `    - { why: "r${i}", reply: "${reply(i)}" }`).join('\n')}\n`;
  it('every auto-graded case needs 3 right and 3 wrong replies; repeats are reported', async () => {
    const thin = await verifyCases([exactCase(replies('right_replies', 1, () => 'Answer: blue'))]);
    expect(thin.results[0]!.problems).toEqual([
      'corpus: 1 right_replies; every auto-graded case needs at least 3 (distinct realistic styles)',
      'corpus: 0 wrong_replies; every auto-graded case needs at least 3 (plausible near misses)',
    ]);
    const full = await verifyCases([exactCase(replies('right_replies', 3, (i) => ['Answer: blue', '**Answer:** Blue.', 'It is blue.\\nAnswer: blue'][i]!) + replies('wrong_replies', 3, (i) => ['Answer: red', 'Answer: green', 'Answer: blue or red'][i]!))]);
    expect(full.results[0]!.problems).toEqual([]);
    expect(full.negative_controls).toBe(3);
    const twice = await verifyCases([exactCase(replies('right_replies', 3, () => 'Answer: blue') + replies('wrong_replies', 3, (i) => `Answer: red${i}`))]);
    expect(twice.results[0]!.problems).toEqual(['verify.right_replies[1] repeats verify.right_replies[0]', 'verify.right_replies[2] repeats verify.right_replies[0]']);
  });
  it('judged cases carry no corpus; coding cases need 3 mutants, and their replies run in the sandbox', async (ctx) => {
    const judged = load(`id: prose-x\ntitle: x y z\ncategory: prose\ndifficulty: easy\nprompt: q\nmax_tokens: 100\ngrader: { type: judge }\nreference: { answer: "A reference answer of a sentence or more.", facts: [f] }\n`, 'prose');
    expect((await verifyCases([judged])).results[0]!.problems).toEqual([]);
    const sandbox = await sandboxFor(ctx);
    const fence = (code: string) => `"Here you go:\\n\`\`\`python\\n${code}\\n\`\`\`"`;
    const corpus = `  right_replies:\n    - { why: terse, reply: ${fence('def double(x): return x * 2')} }\n  wrong_replies:\n    - { why: off by one, reply: ${fence('def double(x): return 2 * x + 1')} }\n    - { why: looks right, reply: ${fence('def double(x): return x + x')} }\n`;
    const code = load(codeCase('def double(x): return 2 * x', 'def double(x): return x') + corpus, 'coding');
    expect((await verifyCases([code], { sandbox })).results[0]!.problems).toEqual([
      'corpus: 1 right_replies; every auto-graded case needs at least 3 (distinct realistic styles)',
      'corpus: 2 wrong_replies; every auto-graded case needs at least 3 (plausible near misses)',
      'corpus: 1 wrong_solutions (mutants of the reference); coding cases need at least 3',
      'wrong reply 2 (looks right) PASSES the grader',
    ]);
  });
  it('a reply pinned to a seed is checked on that seed only, and must name a verify seed', async () => {
    const c = load(
      `id: instruct-x\ntitle: x y z\ncategory: instruct\ndifficulty: easy\nprompt: "Who? {{who}}"\nparams: { who: { choice: [Ilse, Tam, Oona] } }\nmax_tokens: 100\ngrader: { type: exact }\nreference: { answer: "{{who}}" }\nverify:\n  seeds: [1, 2]\n  right_replies:\n    - { why: literal for seed 1, seed: 1, reply: "Answer: {{who}}" }\n    - { why: bad seed, seed: 9, reply: "Answer: {{who}}" }\n`,
      'instruct',
    );
    const problems = (await verifyCases([c])).results[0]!.problems;
    expect(problems).toContain('verify.right_replies[1]: seed 9 is not one of the verify seeds (1, 2)');
    expect(problems.filter((p) => p.startsWith('seed'))).toEqual([]);
  });
  it('a uniqueness proof prints its clues, each of which the rendered prompt states', async (ctx) => {
    const sandbox = await sandboxFor(ctx);
    const puzzle = (clues: string) =>
      load(
        `id: reasoning-x\ntitle: x y z\ncategory: reasoning\ndifficulty: easy\nprompt: "Ada is taller than Bo.\\nWho is tallest?"\nmax_tokens: 100\ngrader: { type: exact }\nreference: { answer: Ada }\nverify:\n  expect: unique_solution\n  program: |\n    import json\n    print(json.dumps({"solutions": ["Ada"]${clues}}))\n`,
        'reasoning',
      );
    expect(await problemsOfIn(sandbox, puzzle(', "clues": ["Ada is taller than Bo."]'))).toEqual([]);
    expect(await problemsOfIn(sandbox, puzzle(', "clues": ["Ada is taller than Bo.", "Bo is taller than Cy."]'))).toEqual(['the program uses a clue the prompt does not state: "Bo is taller than Cy."']);
    expect((await problemsOfIn(sandbox, puzzle('')))[0]).toMatch(/^unique_solution program must print the text of every clue it uses/);
  });
  it('a seeded re-derivation must vary with the draw', async (ctx) => {
    const sandbox = await sandboxFor(ctx);
    const seeded = (program: string, seeds = '[1, 2]') =>
      load(
        `id: math-x\ntitle: x y z\ncategory: math\ndifficulty: easy\nprompt: "n={{n}}"\nparams: { n: { int: [1, 1000] } }\nmax_tokens: 100\ngrader: { type: number }\nreference: { answer: "{{n}}" }\nverify: { seeds: ${seeds}, program: "${program}" }\n`,
        'math',
      );
    expect(await problemsOfIn(sandbox, seeded("import json,sys; print(json.load(sys.stdin)['params']['n'])"))).toEqual([]);
    expect(await problemsOfIn(sandbox, seeded("import json,sys; print(json.load(sys.stdin)['params']['n'])", '[1]'))).toEqual(['a seeded re-derivation runs on at least 2 seeds (verify.seeds has 1)']);
    // an instance that runs its base's programs unchanged may verify its one calibrated draw
    const instance = { ...seeded("import json,sys; print(json.load(sys.stdin)['params']['n'])", '[1]'), programsOf: 'math-base' };
    expect(await problemsOfIn(sandbox, instance)).toEqual([]);
  });
});
