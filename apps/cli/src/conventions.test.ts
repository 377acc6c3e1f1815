/** The conventions every command shares (apps/cli/README.md, "Exit codes and output"), checked in-process. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';
import { memoryIO } from '@crucibleforge/testkit';

describe('a missing models.yaml is the same for every command', () => {
  it.each([
    ['config'],
    ['status'],
    ['models'],
    ['run', '--profile', 'quick', '--models', 'x'],
    ['all', '--profile', 'quick', '--models', 'x', '--yes'],
    ['judge'],
    ['recover', '--run', 'r1'],
    ['pairwise', '--models', 'a,b'],
  ])('%s: exit 2, the message on stderr, nothing on stdout', async (...argv) => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-noconfig-'));
    const t = memoryIO({ cwd: dir, env: {} });
    expect(await main(argv, t.io)).toBe(2);
    expect(t.stdout()).toBe('');
    expect(t.stderr()).toMatch(new RegExp(`^crucibleforge ${argv[0]}: no models\\.yaml found \\(looked at .*\\); create one with "crucibleforge config --init"\\n$`));
  });
});

describe('help and typos', () => {
  it('help <command> prints that command\'s help, exit 0', async () => {
    const viaHelp = memoryIO();
    expect(await main(['help', 'run'], viaHelp.io)).toBe(0);
    const viaFlag = memoryIO();
    expect(await main(['run', '--help'], viaFlag.io)).toBe(0);
    expect(viaHelp.stdout()).toMatch(/^Usage: crucibleforge run /);
    expect(viaHelp.stdout()).toBe(viaFlag.stdout());
    const top = memoryIO();
    expect(await main(['help'], top.io)).toBe(0);
    expect(top.stdout()).toContain('Usage: crucibleforge <command>');
  });

  it('a mistyped command gets "did you mean", exit 2 on stderr; help of an unknown command too', async () => {
    const t = memoryIO();
    expect(await main(['stauts'], t.io)).toBe(2);
    expect(t.stderr()).toMatch(/^crucibleforge: unknown command "stauts" \(did you mean "status"\?\)/);
    expect(t.stdout()).toBe('');
    const far = memoryIO();
    expect(await main(['frobnicate'], far.io)).toBe(2);
    expect(far.stderr()).not.toContain('did you mean');
    const help = memoryIO();
    expect(await main(['help', 'compair'], help.io)).toBe(2);
    expect(help.stderr()).toContain('(did you mean "compare"?)');
  });

  it('a mistyped option gets "did you mean", exit 2 with the command\'s usage', async () => {
    const t = memoryIO();
    expect(await main(['cases', 'list', '--jsn'], t.io)).toBe(2);
    expect(t.stderr()).toMatch(/^crucibleforge cases: unknown option --jsn \(did you mean --json\?\)/);
    expect(t.stderr()).toContain('crucibleforge cases list [--json]');
  });

  it('an interrupted command exits 130, whatever it returned', async () => {
    const controller = new AbortController();
    controller.abort(new Error('received SIGINT'));
    const t = memoryIO({ signal: controller.signal });
    expect(await main(['cases', 'list'], t.io)).toBe(130);
  });
});
