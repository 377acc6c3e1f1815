import type { HarnessResult } from '@crucibleforge/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GraderOf } from '../schema/graders';
import { sandboxFor } from '../test-sandbox';
import { gradeCode, interpretHarness } from './code';

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

describe('interpretHarness (fake results)', () => {
  const base: HarnessResult = {
    status: 'ok', exit_code: 0, signal: null, stdout: '', stderr: '', stdout_truncated: false, stderr_truncated: false,
    wall_ms: 10, cpu_ms: 5, sandboxed: true, passed: false, sentinel_seen: false,
  };
  it('names the test that timed out', () => {
    const r = interpretHarness({ ...base, status: 'timeout', stdout: '\n__CF_TEST__ test 1\n\n__CF_TEST__ test 2 (big)\n' }, 2, 15_000);
    expect(r).toMatchObject({ status: 'fail', reason: 'TIMEOUT after 15 s (in test 2 (big))' });
  });
  it('reports exit 0 without the sentinel as a fail', () => {
    expect(interpretHarness({ ...base, stdout: '\n__CF_TEST__ test 1\n' }, 2, 1000).reason).toBe('exited before the tests finished (in test 1)');
  });
  it('passes only on passed', () => {
    expect(interpretHarness({ ...base, passed: true, sentinel_seen: true }, 3, 1000)).toMatchObject({ status: 'pass', reason: 'all 3 tests passed' });
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
    expect(r.reason).toMatch(/^test 1 failed: expected 3, got <solution\.Yes object|^test 1 failed: expected 3, got </);
  });
  it('python: printing the sentinel placeholder does not fake a pass', async () => {
    const code = 'print("__CRUCIBLE_SENTINEL__")\nimport sys\ndef add(a, b):\n    sys.exit(0)';
    expect((await run(py, fence('python', code))).status).toBe('fail');
  });
  it('python: syntax errors name the line', async () => {
    const r = await run(py, fence('python', 'def add(a, b):\n    return a +'));
    expect(r.reason).toMatch(/^solution failed to load: SyntaxError.*\(line 2\)/);
  });
  it('python: a busy loop is a TIMEOUT naming the test', async () => {
    const r = await run(py, fence('python', 'def add(a, b):\n    while True: pass'), 1500);
    expect(r).toMatchObject({ status: 'fail', reason: 'TIMEOUT after 1.5 s (in test 1)' });
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
