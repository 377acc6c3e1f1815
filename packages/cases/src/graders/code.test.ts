import type { PairResult, SandboxResult } from '@crucibleforge/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GraderOf } from '../schema/graders';
import { sandboxFor } from '../test-sandbox';
import { gradeCode } from './code';
import { interpretCodeRun } from './code-verdict';

const py: GraderOf<'code'> = {
  type: 'code',
  language: 'python',
  function: 'add',
  tests: [
    { call: 'add(1, 2)', expect: 3 },
    { call: 'add(-1, 1)', expect: '0', name: 'zero' },
    { code: 'assert add(2, 2) == 4, "2+2 should be 4"' },
  ],
};
const js: GraderOf<'code'> = { ...py, language: 'node', tests: [{ call: 'add(1, 2)', expect: 3 }, { call: 'add([1], [2])', expect: '"12"' }, { code: 'if (add(2, 2) !== 4) throw new Error("2+2 should be 4")' }] };
const fence = (lang: string, code: string) => `Sure! Here is the code:\n\n\`\`\`${lang}\n${code}\n\`\`\`\n\nIt adds.`;

describe('interpretCodeRun (fake results)', () => {
  const side: SandboxResult = { status: 'ok', exit_code: 0, signal: null, stdout: '', stderr: '', stdout_truncated: false, stderr_truncated: false, wall_ms: 10, cpu_ms: 5, sandboxed: true };
  const tests = py.tests;
  const lines = (...events: object[]) => events.map((e) => `${JSON.stringify(e)}\n`).join('');
  const pass3 = [{ e: 'hello', ok: true }, ...[1, 2, 3].flatMap((i) => [{ e: 'start', i }, { e: 'end', i, status: 'pass', reason: '', ms: 1 }])];
  const run = (report: string, over: Partial<PairResult> = {}): PairResult => ({
    untrusted: side, trusted: side, report, report_truncated: false, untrusted_stopped: false, wall_ms: 20, cpu_ms: 10, sandboxed: true, ...over,
  });
  it('passes only on a complete, in-order report that ends with every test counted', () => {
    expect(interpretCodeRun(run(lines(...pass3, { e: 'done', passed: 3, total: 3 })), tests, 1000)).toMatchObject({ status: 'pass', reason: 'all 3 tests passed' });
    expect(interpretCodeRun(run(lines(...pass3)), tests, 1000).status).toBe('fail');
    expect(interpretCodeRun(run(lines(...pass3, { e: 'done', passed: 2, total: 3 })), tests, 1000).status).toBe('fail');
    expect(interpretCodeRun(run(lines(...pass3.slice(0, 3), ...pass3.slice(5), ...pass3.slice(3, 5), { e: 'done', passed: 3, total: 3 })), tests, 1000).status).toBe('fail');
    expect(interpretCodeRun(run(lines(...pass3, { e: 'done', passed: 3, total: 3 }, { e: 'start', i: 4 })), tests, 1000).status).toBe('fail');
  });
  it('never passes when the checker did not exit cleanly, whatever its report says', () => {
    const report = lines(...pass3, { e: 'done', passed: 3, total: 3 });
    expect(interpretCodeRun(run(report, { trusted: { ...side, status: 'error', exit_code: 1 } }), tests, 1000).status).toBe('fail');
    expect(interpretCodeRun(run(report, { report_truncated: true }), tests, 1000).status).toBe('fail');
  });
  it('names the test that timed out', () => {
    const r = interpretCodeRun(run(lines({ e: 'hello', ok: true }, { e: 'start', i: 1 }, { e: 'end', i: 1, status: 'pass', reason: '', ms: 1 }, { e: 'start', i: 2 }), { trusted: { ...side, status: 'timeout' } }), tests, 15_000);
    expect(r).toMatchObject({ status: 'fail', reason: 'TIMEOUT after 15 s (in test 2 (zero))' });
  });
  it('says how the solution ended when the channel closed under a test', () => {
    const lost = lines({ e: 'hello', ok: true }, { e: 'start', i: 1 }, { e: 'end', i: 1, status: 'lost', reason: 'end of file', ms: 1 });
    expect(interpretCodeRun(run(lost), tests, 1000).reason).toBe('exited before the tests finished (in test 1)');
    expect(interpretCodeRun(run(lost, { untrusted: { ...side, status: 'error', exit_code: 1, stderr: 'Traceback\nZeroDivisionError: division by zero\n' } }), tests, 1000).reason).toBe(
      'crashed (in test 1): ZeroDivisionError: division by zero',
    );
    expect(interpretCodeRun(run(lost, { untrusted: { ...side, status: 'memory', exit_code: 1 } }), tests, 1000).reason).toBe('memory limit exceeded (in test 1)');
  });
  it('reports load failures and a bye that never came', () => {
    expect(interpretCodeRun(run(lines({ e: 'hello', ok: false, why: 'load', reason: 'add is not defined' })), tests, 1000).reason).toBe('solution failed to load: add is not defined');
    expect(interpretCodeRun(run(lines(...pass3, { e: 'bye', ok: false, why: 'lost', reason: 'end of file' })), tests, 1000).reason).toBe('exited before the tests finished (after the last test)');
  });
});

describe('code grader in the real sandbox', () => {
  let ctx: { skip: (note?: string) => never };
  const run = async (g: GraderOf<'code'>, reply: string, timeLimitMs?: number) => {
    const sandbox = await sandboxFor(ctx);
    return gradeCode(g, reply, { sandbox, ...(timeLimitMs ? { timeLimitMs } : {}) });
  };
  beforeEach((c) => {
    ctx = c;
  });
  it('python: passes a correct solution with preamble and a main block', async () => {
    const code = 'def add(a, b):\n    return a + b\n\nif __name__ == "__main__":\n    print(add(int(input()), 1))';
    expect(await run(py, fence('python', code))).toMatchObject({ status: 'pass' });
  });
  it('python: names the failing test with expected and got', async () => {
    const r = await run(py, fence('python', 'def add(a, b):\n    return a + b + (1 if a < 0 else 0)'));
    expect(r).toMatchObject({ status: 'fail', reason: 'test 2 (zero) failed: expected 0, got 1' });
  });
  it('python: an __eq__ that always says yes cannot pass', async () => {
    const code = 'class Yes:\n    def __eq__(self, o): return True\ndef add(a, b):\n    return Yes()';
    const r = await run(py, fence('python', code));
    expect(r.status).toBe('fail');
    expect(r.reason).toBe('test 1 failed: expected 3, got <solution.Yes object>');
  });
  it('python: an exit inside the function is a raised SystemExit, not an early pass', async () => {
    const code = 'import sys\ndef add(a, b):\n    sys.exit(0)';
    expect(await run(py, fence('python', code))).toMatchObject({ status: 'fail', reason: 'test 1 failed: raised SystemExit: 0' });
  });
  it('python: syntax errors name the line', async () => {
    const r = await run(py, fence('python', 'def add(a, b):\n    return a +'));
    expect(r.reason).toMatch(/^solution failed to load: SyntaxError.*\(line 2\)/);
  });
  it('python: a busy loop is a TIMEOUT naming the test', async () => {
    const r = await run(py, fence('python', 'def add(a, b):\n    while True: pass'), 3000);
    expect(r).toMatchObject({ status: 'fail', reason: 'TIMEOUT after 3 s (in test 1)' });
  });
  it('node: function, const arrow and module.exports forms all load', async () => {
    for (const code of [
      'function add(a, b) { return a + b; }',
      'const add = (a, b) => a + b;',
      'module.exports = { add: (a, b) => a + b };',
      'export function add(a, b) { return a + b; }',
    ]) {
      expect(await run(js, fence('javascript', code)), code).toMatchObject({ status: 'pass' });
    }
  });
  it('node: wrong code names the test', async () => {
    const r = await run(js, fence('js', 'function add(a, b) { return Number(a) + Number(b); }'));
    expect(r).toMatchObject({ status: 'fail', reason: 'test 2 failed: expected \'12\', got 3' });
  });
  it('no code in response', async () => {
    expect(await gradeCode(py, 'I cannot help with that.', {})).toMatchObject({ status: 'fail', reason: 'no code in response (nothing defines add)' });
  });
});

describe('declared comparison rules, in the real sandbox', () => {
  let ctx: { skip: (note?: string) => never };
  beforeEach((c) => {
    ctx = c;
  });
  const grader = (language: 'python' | 'node', tests: GraderOf<'code'>['tests'], setup?: string): GraderOf<'code'> => ({
    type: 'code',
    language,
    function: 'f',
    tests,
    ...(setup ? { setup } : {}),
  });
  const run = async (g: GraderOf<'code'>, code: string) => gradeCode(g, fence(g.language === 'python' ? 'python' : 'js', code), { sandbox: await sandboxFor(ctx) });
  /** The same four tests in either language; `check` is the language's order check. */
  const ruleTests = (check: string): GraderOf<'code'>['tests'] => [
    { call: 'f(0)', expect: '[3, 1, 2]', compare: 'unordered' },
    { call: 'f(1)', expect: '["a", "b"]', compare: 'any_of' },
    { call: 'f(2)', expect: '0.5', tolerance: 0.01 },
    { call: 'f(3)', check },
  ];

  it('python: unordered, any_of, tolerance and a trusted check function', async () => {
    const g = grader(
      'python',
      ruleTests('_cf_is_order'),
      'def _cf_is_order(got):\n    assert sorted(got) == [0, 1, 2], "not a permutation"\n    return got.index(0) < got.index(2)',
    );
    const good = 'def f(k):\n    return [[1, 2, 3], "b", 0.501, [0, 1, 2]][k]';
    expect(await run(g, good)).toMatchObject({ status: 'pass' });
    expect((await run(g, good.replace('[1, 2, 3]', '[1, 2, 2]'))).reason).toBe('test 1 failed: expected [3, 1, 2] in any order, got [1, 2, 2]');
    expect((await run(g, good.replace('"b"', '"c"'))).reason).toBe("test 2 failed: expected one of ['a', 'b'], got 'c'");
    expect((await run(g, good.replace('0.501', '0.52'))).reason).toBe('test 3 failed: expected 0.5, got 0.52');
    expect((await run(g, good.replace('[0, 1, 2]]', '[2, 1, 0]]'))).reason).toBe('test 4 failed: got [2, 1, 0], which _cf_is_order rejects');
    expect((await run(g, good.replace('[0, 1, 2]]', '[0, 1, 1]]'))).reason).toBe('test 4 failed: not a permutation');
  });

  it('node: the same rules', async () => {
    const g = grader('node', ruleTests('(got) => got.indexOf(0) < got.indexOf(2)'));
    const good = 'function f(k) { return [[1, 2, 3], "b", 0.501, [0, 1, 2]][k]; }';
    expect(await run(g, good)).toMatchObject({ status: 'pass' });
    expect((await run(g, good.replace('[1, 2, 3]', '[1, 2, 2]'))).reason).toBe('test 1 failed: expected [ 3, 1, 2 ] in any order, got [ 1, 2, 2 ]');
    expect((await run(g, good.replace('[0, 1, 2]]', '[2, 1, 0]]'))).reason).toMatch(/^test 4 failed: got \[ 2, 1, 0 \], which .* rejects$/);
  });
});
