import { chmod, copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CrucibleError } from '@crucibleforge/core';
import { detectSandbox } from './detect';
import { createSandbox } from './sandbox';
import { detection, py } from './test-support';
import type { Sandbox } from './types';

describe('without a usable bwrap', () => {
  it('detectSandbox says why', async () => {
    const missing = await detectSandbox({ bwrapPath: '/nonexistent/bwrap' });
    expect(missing).toMatchObject({ available: false, bwrapPath: '/nonexistent/bwrap' });
    expect(missing.reason).toContain('/nonexistent/bwrap');
    const broken = await detectSandbox({ bwrapPath: '/bin/false' });
    expect(broken.available).toBe(false);
    expect(broken.reason).toMatch(/cannot create the sandbox/);
  });

  it('createSandbox refuses with SANDBOX_UNAVAILABLE', async () => {
    const error = await createSandbox({ bwrapPath: '/nonexistent/bwrap' }).catch((e: unknown) => e);
    expect(CrucibleError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'SANDBOX_UNAVAILABLE' });
    expect((error as Error).message).toMatch(/bwrap not found.*allowUnsandboxed/s);
  });

  describe.skipIf(process.platform !== 'linux')('with allowUnsandboxed', () => {
    let sandbox: Sandbox;
    beforeAll(async () => {
      sandbox = await createSandbox({ bwrapPath: '/nonexistent/bwrap', allowUnsandboxed: true, poolSize: 2 });
    });

    it('runs, marks every result sandboxed: false, and still clears the environment', async () => {
      expect(sandbox.sandboxed).toBe(false);
      process.env.CRUCIBLE_DECOY_API_KEY = 'sk-decoy-unsandboxed';
      try {
        const result = await py(sandbox, 'import os\nprint(sorted(os.environ))');
        expect(result).toMatchObject({ status: 'ok', sandboxed: false });
        expect(result.stdout).not.toContain('CRUCIBLE_DECOY_API_KEY');
      } finally {
        delete process.env.CRUCIBLE_DECOY_API_KEY;
      }
    });

    it('keeps the limits it can: memory, wall time, output', async () => {
      expect((await py(sandbox, 'x = bytearray(512 * 2**20)', { memoryMb: 128 })).status).toBe('memory');
      expect((await py(sandbox, 'import time\ntime.sleep(30)', { timeoutMs: 800 })).status).toBe('timeout');
      const flood = await py(sandbox, 'import sys\nfor _ in range(100):\n    sys.stdout.write("x" * (1 << 20))', { maxOutputBytes: 1 << 16 });
      expect(flood).toMatchObject({ status: 'output_limit', stdout_truncated: true, sandboxed: false });
    });
  });
});

describe.skipIf(!detection.available)('run', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ poolSize: 2 });
  });

  it('passes stdin, extra files (importable, read-only) and a writable cwd', async () => {
    const result = await py(
      sandbox,
      `import sys, helper
print(helper.double(int(sys.stdin.read())))
open("out.txt", "w").write("ok")
print(open("out.txt").read())
try:
    open("helper.py", "a").write("x")
except OSError as e:
    print("readonly", e.errno)`,
      { stdin: '21', files: { 'helper.py': 'def double(x):\n    return 2 * x\n' } },
    );
    expect(result).toMatchObject({ status: 'ok', stdout: expect.stringMatching(/^42\nok\nreadonly \d+\n$/) });
  });

  it('reports exit codes, stderr and CPU time', async () => {
    const result = await py(sandbox, 'import sys\nsum(i * i for i in range(3_000_000))\nprint("bad", file=sys.stderr)\nsys.exit(7)');
    expect(result).toMatchObject({ status: 'error', exit_code: 7, signal: null, stderr: 'bad\n', sandboxed: true });
    expect(result.cpu_ms).toBeGreaterThan(0);
    expect(result.wall_ms).toBeGreaterThan(0);
  });

  it('runs node programs written as CommonJS or as ES modules', async () => {
    const cjs = await sandbox.run({ language: 'node', source: "const os = require('node:os'); console.log(typeof os.cpus)" });
    expect(cjs).toMatchObject({ status: 'ok', stdout: 'function\n' });
    const esm = await sandbox.run({ language: 'node', source: "import { readdirSync } from 'node:fs'; console.log(readdirSync('.').join(','))" });
    expect(esm).toMatchObject({ status: 'ok', stdout: 'main.js\n' });
  });

  it('rejects malformed requests with SANDBOX_BAD_REQUEST naming the field', async () => {
    const bad = [
      { language: 'ruby', source: '' },
      { language: 'python', source: '', files: { '../x': '' } },
      { language: 'python', source: '', files: { 'main.py': '' } },
      { language: 'python', source: '', timeoutMs: -1 },
      { language: 'python', source: '', memoryMb: Number.NaN },
    ];
    for (const request of bad) {
      await expect(sandbox.run(request as never)).rejects.toMatchObject({ code: 'SANDBOX_BAD_REQUEST' });
    }
    await expect(sandbox.run({ language: 'python', source: '', timeoutMs: 0 })).rejects.toThrow(/timeoutMs/);
  });

  it('a missing interpreter is the program failing (127), a vanished bwrap is SANDBOX_FAILED', async () => {
    const noPython = await createSandbox({ pythonPath: '/nonexistent/python3' });
    expect(await py(noPython, 'print(1)')).toMatchObject({ status: 'error', exit_code: 127 });

    const dir = await mkdtemp(join(tmpdir(), 'crucible-bwrap-'));
    try {
      await chmod(dir, 0o755);
      const copy = join(dir, 'bwrap');
      await copyFile(detection.bwrapPath!, copy);
      await chmod(copy, 0o755);
      const vanishing = await createSandbox({ bwrapPath: copy });
      expect(vanishing.sandboxed).toBe(true);
      await rm(copy);
      await expect(py(vanishing, 'print(1)')).rejects.toMatchObject({ code: 'SANDBOX_FAILED' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('runs at most poolSize programs at once', async () => {
    const one = await createSandbox({ poolSize: 1 });
    // Each run records when it starts and ends on the sandbox's own clock; with a pool of one they never overlap.
    const source = 'import time\nprint(time.monotonic())\ntime.sleep(0.3)\nprint(time.monotonic())';
    const results = await Promise.all([1, 2, 3].map(() => py(one, source)));
    const spans = results.map((r) => r.stdout.trim().split('\n').map(Number) as [number, number]).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
  });
});
