import { describe, expect, it } from 'vitest';
import { buildBwrapArgs, isSafeFileName, type BwrapPolicy } from './policy';

const policy: BwrapPolicy = {
  readOnlyPaths: ['/usr', '/etc/ld.so.cache'],
  symlinks: [{ path: '/bin', target: 'usr/bin' }],
  files: [{ hostPath: '/tmp/crucible-sbx-1/main.py', name: 'main.py' }],
  workDir: '/tmp/job',
  tmpBytes: 64 * 1024 * 1024,
  shmBytes: 1024 * 1024,
  env: { PATH: '/usr/bin:/bin', HOME: '/tmp' },
  disableNestedUserns: true,
  hostname: 'sandbox',
  statusFd: 4,
  seccompFd: 8,
  supervisorHostPath: '/host/tmp/run/supervisor',
  command: ['/usr/bin/python3', 'main.py'],
};

/** The values following each occurrence of `flag`. */
function after(args: string[], flag: string, count = 1): string[][] {
  const found: string[][] = [];
  args.forEach((arg, i) => {
    if (arg === flag) found.push(args.slice(i + 1, i + 1 + count));
  });
  return found;
}

describe('buildBwrapArgs', () => {
  const args = buildBwrapArgs(policy);
  const separator = args.indexOf('--');

  it('unshares every namespace, dies with its parent, starts a new session and drops capabilities', () => {
    const options = args.slice(0, separator);
    for (const flag of ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session']) {
      expect(options).toContain(flag);
    }
    expect(after(options, '--cap-drop')).toEqual([['ALL']]);
    expect(options).not.toContain('--share-net');
  });

  it('binds only the listed paths, read-only, at the same place', () => {
    expect(after(args, '--ro-bind-try', 2)).toEqual([
      ['/usr', '/usr'],
      ['/etc/ld.so.cache', '/etc/ld.so.cache'],
    ]);
    expect(args).not.toContain('--bind');
    expect(args).not.toContain('--dev-bind');
    expect(after(args, '--ro-bind', 2)).toEqual([
      ['/tmp/crucible-sbx-1/main.py', '/tmp/job/main.py'],
      ['/host/tmp/run/supervisor', '/sandbox/sh'],
    ]);
    expect(after(args, '--symlink', 2)).toEqual([['usr/bin', '/bin']]);
  });

  it('gives a size-bounded private /tmp and /dev/shm, and makes / and /dev read-only after every mount', () => {
    const tmp = args.indexOf('/tmp', args.indexOf('--tmpfs'));
    expect(args.slice(args.lastIndexOf('--size', tmp), tmp + 1)).toEqual(['--size', String(64 * 1024 * 1024), '--tmpfs', '/tmp']);
    const shm = args.indexOf('/dev/shm');
    expect(args.slice(shm - 3, shm + 1)).toEqual(['--size', String(1024 * 1024), '--tmpfs', '/dev/shm']);
    const remountRoot = args.findIndex((arg, i) => arg === '--remount-ro' && args[i + 1] === '/');
    const lastMount = Math.max(...['--ro-bind', '--ro-bind-try', '--tmpfs', '--dir', '--proc', '--dev'].map((f) => args.lastIndexOf(f)));
    expect(remountRoot).toBeGreaterThan(lastMount);
    expect(after(args, '--remount-ro')).toContainEqual(['/dev']);
  });

  it('clears the environment, sets only the given variables, and enters the work dir', () => {
    const clear = args.indexOf('--clearenv');
    expect(clear).toBeGreaterThan(-1);
    expect(after(args, '--setenv', 2)).toEqual([
      ['PATH', '/usr/bin:/bin'],
      ['HOME', '/tmp'],
    ]);
    expect(args.indexOf('--setenv')).toBeGreaterThan(clear);
    expect(after(args, '--chdir')).toEqual([['/tmp/job']]);
    expect(after(args, '--json-status-fd')).toEqual([['4']]);
  });

  it('hands bwrap the seccomp filter and binds the execute-only supervisor shell', () => {
    expect(after(args.slice(0, separator), '--seccomp')).toEqual([['8']]);
    expect(args.indexOf('/sandbox/sh')).toBeLessThan(args.findIndex((arg, i) => arg === '--remount-ro' && args[i + 1] === '/'));
  });

  it('puts the command last, after --', () => {
    expect(args.slice(separator)).toEqual(['--', '/usr/bin/python3', 'main.py']);
  });

  it('omits --size when the tmpfs cannot be bounded, and the userns lock when not asked', () => {
    const loose = buildBwrapArgs({ ...policy, tmpBytes: null, shmBytes: null, disableNestedUserns: false, statusFd: null, seccompFd: null, supervisorHostPath: null });
    expect(loose).not.toContain('--size');
    expect(loose).not.toContain('--disable-userns');
    expect(loose).not.toContain('--json-status-fd');
    expect(loose).not.toContain('--seccomp');
    expect(loose).not.toContain('/sandbox/sh');
    expect(loose).toContain('--tmpfs');
  });

  it('refuses an unsafe policy', () => {
    expect(() => buildBwrapArgs({ ...policy, files: [{ hostPath: '/x', name: '../etc/passwd' }] })).toThrow(/unsafe file name/);
    expect(() => buildBwrapArgs({ ...policy, readOnlyPaths: ['usr'] })).toThrow(/absolute/);
    expect(() => buildBwrapArgs({ ...policy, workDir: '/home/me' })).toThrow(/under \/tmp/);
    expect(() => buildBwrapArgs({ ...policy, command: [] })).toThrow(/command is empty/);
  });
});

describe('isSafeFileName', () => {
  it('accepts plain names and rejects paths and dot names', () => {
    expect(isSafeFileName('helper_2.py')).toBe(true);
    for (const bad of ['', '.', '..', '.hidden', 'a/b', '../x', 'a\0b', 'x'.repeat(200)]) expect(isSafeFileName(bad)).toBe(false);
  });
});
