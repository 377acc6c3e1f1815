import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { detectSandbox } from '@crucibleforge/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { memoryIO } from '@crucibleforge/testkit';

const detection = await detectSandbox();
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-cli-sbx-'));
  await writeFile(join(dir, 'hello.py'), 'import sys\nprint("hello from python")\nprint("warn", file=sys.stderr)\n');
  await writeFile(join(dir, 'fail.py'), 'raise SystemExit(4)\n');
  await writeFile(join(dir, 'sleep.py'), 'import time\ntime.sleep(30)\n');
  await writeFile(join(dir, 'hello.js'), 'console.log("hello from node")\n');
  await writeFile(join(dir, 'program.txt'), 'print(1)\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[], env: Record<string, string> = {}) {
  const t = memoryIO({ cwd: dir, env });
  const code = await main(['sandbox', ...args], t.io);
  return { code, stdout: t.stdout(), stderr: t.stderr() };
}

describe('crucibleforge sandbox exec: usage errors exit 2', () => {
  it.each([
    [['exec', '--lang', 'ruby', 'hello.py'], /--lang must be python or node/],
    [['exec', '--lang', 'python', 'missing.py'], /program file not found: .*missing\.py/],
    [['exec', '--lang', 'python'], /missing the program file/],
    [['exec', 'program.txt'], /--lang is required/],
    [['exec', '--lang', 'python', 'hello.py', '--timeout-s', 'soon'], /--timeout-s must be a positive number/],
    [['exec', '--lang', 'python', 'hello.py', '--memory-mb', '-5'], /--memory-mb/],
    [['exec', '--lang', 'python', 'hello.py', '--frobnicate'], /frobnicate/],
    [['run', 'hello.py'], /unknown subcommand "run"/],
    [[], /missing the subcommand/],
  ])('%j', async (args, message) => {
    const { code, stderr, stdout } = await cli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('Usage: crucibleforge sandbox exec');
    expect(stdout).toBe('');
  });
});

describe('crucibleforge sandbox exec: no sandbox', () => {
  it('exits 3 with a clear message when bwrap is missing', async () => {
    const { code, stdout, stderr } = await cli(['exec', '--lang', 'python', 'hello.py', '--json'], { CRUCIBLEFORGE_BWRAP: '/nonexistent/bwrap' });
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/no usable sandbox: .*\/nonexistent\/bwrap/);
    expect(stderr).toContain('--allow-unsandboxed');
  });

  it.skipIf(process.platform !== 'linux')('runs unsandboxed with --allow-unsandboxed and says so', async () => {
    const { code, stdout, stderr } = await cli(['exec', '--lang', 'python', 'hello.py', '--json', '--allow-unsandboxed'], {
      CRUCIBLEFORGE_BWRAP: '/nonexistent/bwrap',
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'ok', sandboxed: false, stdout: 'hello from python\n' });
    expect(stderr).toMatch(/WARNING.*WITHOUT a sandbox/);
  });
});

describe.skipIf(!detection.available)('crucibleforge sandbox exec: runs', () => {
  it('--json prints exactly one JSON object, the result', async () => {
    const { code, stdout } = await cli(['exec', '--lang', 'python', 'hello.py', '--json']);
    expect(code).toBe(0);
    expect(stdout.endsWith('\n')).toBe(true);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const result = JSON.parse(stdout);
    expect(Object.keys(result).sort()).toEqual(
      ['cpu_ms', 'exit_code', 'sandboxed', 'signal', 'status', 'stderr', 'stderr_truncated', 'stdout', 'stdout_truncated', 'wall_ms'].sort(),
    );
    expect(result).toMatchObject({ status: 'ok', exit_code: 0, signal: null, stdout: 'hello from python\n', stderr: 'warn\n', sandboxed: true });
  });

  it('exits 0 whatever the program did: failing, timing out', async () => {
    const failed = await cli(['exec', '--lang', 'python', 'fail.py', '--json']);
    expect(failed.code).toBe(0);
    expect(JSON.parse(failed.stdout)).toMatchObject({ status: 'error', exit_code: 4 });
    const slow = await cli(['exec', '--lang', 'python', 'sleep.py', '--json', '--timeout-s', '1']);
    expect(slow.code).toBe(0);
    expect(JSON.parse(slow.stdout)).toMatchObject({ status: 'timeout' });
  });

  it('without --json passes the program output through and summarises on stderr', async () => {
    const { code, stdout, stderr } = await cli(['exec', 'hello.js', '--memory-mb', '256']);
    expect(code).toBe(0);
    expect(stdout).toBe('hello from node\n');
    expect(stderr).toMatch(/\[sandbox\] status=ok exit=0 .*sandboxed=yes/);
  });

  const bin = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
  // Only a build newer than this command can know it (turbo builds before testing; a plain vitest run may not).
  const fresh = existsSync(bin) && statSync(bin).mtimeMs >= statSync(fileURLToPath(new URL('./sandbox.ts', import.meta.url))).mtimeMs;
  // On CI (CI set) a missing or stale build fails instead of skipping.
  if (process.env['CI'] && !fresh) it('the built CLI is fresh (required when CI is set)', () => expect.fail(`${bin} is missing or older than sandbox.ts: build first`));
  it.skipIf(!fresh)('works from the built binary', async () => {
    const child = await execa('node', [bin, 'sandbox', 'exec', '--lang', 'python', join(dir, 'hello.py'), '--json'], { reject: false });
    expect(child.exitCode).toBe(0);
    expect(JSON.parse(String(child.stdout))).toMatchObject({ status: 'ok', sandboxed: true });
  });
});
