import { describe, expect, it, beforeAll } from 'vitest';
import { createSandbox, harnessSource } from './sandbox';
import { detection } from './test-support';
import { SENTINEL_PLACEHOLDER, type Sandbox } from './types';

const harness = `assert add(2, 3) == 5
assert add(-1, 1) == 0
print("${SENTINEL_PLACEHOLDER}")`;

describe('harnessSource', () => {
  it('replaces the placeholder in the harness only, never in the program', () => {
    const source = harnessSource({ program: `print("${SENTINEL_PLACEHOLDER}")`, harness: `print("${SENTINEL_PLACEHOLDER}")` }, 'TOK');
    expect(source).toBe(`print("${SENTINEL_PLACEHOLDER}")\n\nprint("TOK")\n`);
  });
});

describe.skipIf(!detection.available)('runHarness', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ poolSize: 2 });
  });
  const run = (program: string, extra: { harness?: string; maxOutputBytes?: number } = {}) =>
    sandbox.runHarness({ language: 'python', program, harness: extra.harness ?? harness, timeoutMs: 5000, memoryMb: 256, ...extra });

  it('passes only when the harness reaches the sentinel', async () => {
    const result = await run('def add(a, b):\n    return a + b');
    expect(result).toMatchObject({ status: 'ok', passed: true, sentinel_seen: true });
    // the per-run token is shown as the placeholder
    expect(result.stdout).toBe(`${SENTINEL_PLACEHOLDER}\n`);
  });

  it('a failing test fails', async () => {
    const result = await run('def add(a, b):\n    return a - b');
    expect(result).toMatchObject({ status: 'error', passed: false, sentinel_seen: false, exit_code: 1 });
    expect(result.stderr).toContain('AssertionError');
  });

  it('exiting 0 early does not pass', async () => {
    for (const exit of ['import sys\nsys.exit(0)', 'import os\nos._exit(0)', 'raise SystemExit']) {
      const result = await run(`def add(a, b):\n    return 0\n${exit}`);
      expect(result, exit).toMatchObject({ status: 'ok', exit_code: 0, passed: false, sentinel_seen: false });
    }
  });

  it('printing the placeholder text itself does not pass', async () => {
    const result = await run(`print("${SENTINEL_PLACEHOLDER}")\nprint("CRUCIBLE-PASS-" + "0" * 32)\nimport sys\nsys.exit(0)`);
    expect(result).toMatchObject({ status: 'ok', passed: false, sentinel_seen: false });
    expect(result.stdout).toContain(SENTINEL_PLACEHOLDER);
  });

  it('does not pass when the process fails after the sentinel', async () => {
    const result = await run('def add(a, b):\n    return a + b\nimport atexit, os\natexit.register(lambda: os._exit(3))');
    expect(result).toMatchObject({ sentinel_seen: true, passed: false, status: 'error', exit_code: 3 });
  });

  it('sees the sentinel past the output cap', async () => {
    const result = await run('import sys\nsys.stdout.write("x" * 5000)\ndef add(a, b):\n    return a + b', { maxOutputBytes: 1000 });
    expect(result).toMatchObject({ status: 'ok', passed: true, stdout_truncated: true });
    expect(result.stdout).toHaveLength(1000);
  });

  it('works for node', async () => {
    const result = await sandbox.runHarness({
      language: 'node',
      program: 'function add(a, b) { return a + b; }',
      harness: `const assert = require('node:assert');\nassert.strictEqual(add(2, 3), 5);\nconsole.log('${SENTINEL_PLACEHOLDER}');`,
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({ status: 'ok', passed: true });
  });

  it('refuses a harness that can never pass', async () => {
    await expect(run('x = 1', { harness: 'print("done")' })).rejects.toMatchObject({ code: 'SANDBOX_BAD_REQUEST' });
  });
});
