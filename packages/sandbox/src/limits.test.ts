import { describe, expect, it } from 'vitest';
import { buildLimitedCommand, parseWrapperReport } from './limits';

const limits = { cpuSeconds: 2.2, addressSpaceBytes: 256 * 2 ** 20, fileSizeBytes: 2 ** 20, maxProcesses: 32, maxOpenFiles: 100 };

describe('buildLimitedCommand', () => {
  it('sets every rlimit with prlimit, CPU soft below hard so SIGXCPU comes first', () => {
    const argv = buildLimitedCommand(limits, ['/usr/bin/python3', 'main.py'], { prlimit: '/usr/bin/prlimit', shell: '/bin/sh' });
    expect(argv.slice(0, 8)).toEqual([
      '/usr/bin/prlimit',
      '--cpu=3:4',
      `--as=${256 * 2 ** 20}`,
      `--fsize=${2 ** 20}`,
      '--nproc=32',
      '--nofile=100',
      '--core=0',
      '--',
    ]);
    expect(argv.slice(8, 10)).toEqual(['/bin/sh', '-c']);
    expect(argv.slice(-3)).toEqual(['sh', '/usr/bin/python3', 'main.py']);
  });

  it('runs the program with the report fd closed', () => {
    const argv = buildLimitedCommand(limits, ['x'], { prlimit: null, shell: '/bin/sh' });
    expect(argv[0]).toBe('/bin/sh');
    expect(argv[2]).toContain('"$@" 3>&-');
  });
});

describe('parseWrapperReport', () => {
  it('reads dash and bash `times` output: children user + system', () => {
    expect(parseWrapperReport('started\n0m0.000000s 0m0.000000s\n0m1.250000s 0m0.040000s\nexit 0\n')).toEqual({
      started: true,
      cpuMs: 1290,
      exitStatus: 0,
    });
    expect(parseWrapperReport('started\n0m0.001s 0m0.000s\n1m2.500s 0m0.500s\nexit 137\n')).toEqual({
      started: true,
      cpuMs: 63000,
      exitStatus: 137,
    });
  });

  it('reports what it can when the wrapper was killed', () => {
    expect(parseWrapperReport('started\n')).toEqual({ started: true, cpuMs: null, exitStatus: null });
    expect(parseWrapperReport('')).toEqual({ started: false, cpuMs: null, exitStatus: null });
  });
});
