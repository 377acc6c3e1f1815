import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { buildLimitedCommand, limitLines, parseWrapperReport, type ResourceLimits } from './limits';

const limits: ResourceLimits = { cpuSeconds: 2.2, addressSpaceBytes: 256 * 2 ** 20, fileSizeBytes: 2 ** 20, maxProcesses: 32, maxOpenFiles: 100 };

describe('limitLines', () => {
  it('strict: one chain that stops the run when any limit fails', () => {
    const [line, ...rest] = limitLines(limits, true);
    expect(rest).toEqual([]);
    expect(line).toBe(
      'ulimit -S -t 3 && ulimit -H -t 4 && ulimit -v 262144 && ulimit -f 2048 && ulimit -c 0 && ulimit -n 100 && ' +
        '{ ulimit -u 32 2>/dev/null || ulimit -p 32; } || { echo limits-failed >&3; exit 125; }',
    );
  });

  it('lenient: each limit on its own, errors ignored', () => {
    const lines = limitLines(limits, false);
    expect(lines).toHaveLength(7);
    for (const line of lines) expect(line.endsWith('2>/dev/null')).toBe(true);
  });
});

describe('buildLimitedCommand', () => {
  it('runs the program through the shell with the report fd closed', () => {
    const argv = buildLimitedCommand(limits, ['/usr/bin/python3', 'main.py'], { shell: '/bin/sh', strict: true });
    expect(argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(argv[2]).toContain('\n"$@" 3>&- 4>&- 8>&-\n');
    expect(argv.slice(3)).toEqual(['sh', '/usr/bin/python3', 'main.py']);
  });

  // The units differ per limit and per shell (bash as "bash" counts -f in KiB, as "sh" in POSIX 512-byte
  // blocks like dash): the sandbox always runs /bin/sh, so check what the kernel actually got from it.
  for (const shell of ['/bin/sh', '/bin/dash'].filter((s) => existsSync(s))) {
    it(`sets exactly the requested limits with ${shell}`, async () => {
      const argv = buildLimitedCommand(limits, ['/bin/cat', '/proc/self/limits'], { shell, strict: true });
      const run = await execa(argv[0]!, argv.slice(1), { reject: false, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], uid: 65534, gid: 65534 });
      expect(run.exitCode, String(run.stderr)).toBe(0);
      const row = (name: string) => new RegExp(`^${name}\\s+(\\S+)\\s+(\\S+)`, 'm').exec(String(run.stdout))?.slice(1, 3);
      expect(row('Max cpu time')).toEqual(['3', '4']);
      expect(row('Max address space')).toEqual([String(256 * 2 ** 20), String(256 * 2 ** 20)]);
      expect(row('Max file size')).toEqual([String(2 ** 20), String(2 ** 20)]);
      expect(row('Max processes')).toEqual(['32', '32']);
      expect(row('Max open files')).toEqual(['100', '100']);
      expect(row('Max core file size')).toEqual(['0', '0']);
      const report = parseWrapperReport(String(run.stdio[3]));
      expect(report).toMatchObject({ started: true, limitsFailed: false, exitStatus: 0 });
      expect(report.cpuMs).not.toBeNull();
    });
  }
});

describe('parseWrapperReport', () => {
  it('reads dash and bash `times` output: children user + system', () => {
    expect(parseWrapperReport('started\n0m0.000000s 0m0.000000s\n0m1.250000s 0m0.040000s\nexit 0\n')).toEqual({
      started: true,
      limitsFailed: false,
      cpuMs: 1290,
      exitStatus: 0,
    });
    expect(parseWrapperReport('started\n0m0.001s 0m0.000s\n1m2.500s 0m0.500s\nexit 137\n')).toMatchObject({ cpuMs: 63000, exitStatus: 137 });
  });

  it('reports what it can when the wrapper was killed or the limits failed', () => {
    expect(parseWrapperReport('started\n')).toEqual({ started: true, limitsFailed: false, cpuMs: null, exitStatus: null });
    expect(parseWrapperReport('')).toEqual({ started: false, limitsFailed: false, cpuMs: null, exitStatus: null });
    expect(parseWrapperReport('limits-failed\n')).toMatchObject({ started: false, limitsFailed: true });
  });
});
