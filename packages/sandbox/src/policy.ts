/**
 * The bubblewrap policy as data, and the pure function that turns it into bwrap's argument list.
 * Everything the sandboxed program can see is named here; nothing else of the host is mounted.
 */
export interface BwrapPolicy {
  /** Host directories or files bound read-only at the same path (skipped when missing: --ro-bind-try). */
  readOnlyPaths: readonly string[];
  /** Top-level symlinks recreated inside (merged-/usr systems: `/bin` → `usr/bin`). */
  symlinks: readonly { path: string; target: string }[];
  /** Files bound read-only into the work dir: host path → file name inside `workDir`. */
  files: readonly { hostPath: string; name: string }[];
  /** The program's cwd, created inside the private /tmp (so it is writable, within the tmpfs bound). */
  workDir: string;
  /** Size of the private /tmp tmpfs in bytes; null when this bwrap has no `--size` (then unbounded by bwrap). */
  tmpBytes: number | null;
  /** Size of the private /dev/shm tmpfs in bytes (same null rule). */
  shmBytes: number | null;
  /** The whole environment of the program (bwrap starts from --clearenv). */
  env: Readonly<Record<string, string>>;
  /** Add `--unshare-user --disable-userns` (no nested user namespaces); needs bwrap ≥ 0.8. */
  disableNestedUserns: boolean;
  hostname: string;
  /** bwrap writes JSON status (the sandbox's init pid, the exit code) on this fd; null for none. */
  statusFd: number | null;
  /** bwrap reads the seccomp filter (buildSeccompFilter) from this fd and applies it to the sandbox; null for none. */
  seccompFd: number | null;
  /**
   * An execute-only copy of the shell on the host, bound at SUPERVISOR_PATH: the limit wrapper runs from it,
   * so the kernel marks the sandbox's pid 1 non-dumpable (no /proc/1/mem, /proc/1/fd or ptrace access for
   * the program). null: no such copy (the command then names its shell itself).
   */
  supervisorHostPath: string | null;
  /** The command run inside (absolute paths: there is no PATH lookup before the env is set). */
  command: readonly string[];
}

/** Top-level host directories that interpreters may need, bound or symlinked as the host has them. */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;

/** The few /etc files an interpreter reads at start (dynamic loader cache, time zone, alternatives links). */
export const ETC_PATHS = ['/etc/ld.so.cache', '/etc/localtime', '/etc/alternatives', '/etc/ssl/openssl.cnf'] as const;

export const SANDBOX_WORK_DIR = '/tmp/job';

/** Where the execute-only supervisor shell is bound inside the sandbox. */
export const SUPERVISOR_PATH = '/sandbox/sh';

const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** True when `name` is a plain file name that can be placed in the work dir (no slashes, no dot-dot). */
export function isSafeFileName(name: string): boolean {
  return SAFE_NAME.test(name) && name.length <= 128;
}

/** Builds bwrap's argument list (without the bwrap path itself). Pure; throws only on an unsafe policy. */
export function buildBwrapArgs(policy: BwrapPolicy): string[] {
  if (policy.command.length === 0) throw new Error('bwrap policy: command is empty');
  if (!policy.workDir.startsWith('/tmp/')) throw new Error(`bwrap policy: workDir must be under /tmp, got "${policy.workDir}"`);
  for (const path of policy.readOnlyPaths) {
    if (!path.startsWith('/')) throw new Error(`bwrap policy: read-only path must be absolute, got "${path}"`);
  }
  const args: string[] = ['--unshare-all'];
  if (policy.disableNestedUserns) args.push('--unshare-user', '--disable-userns');
  // --as-pid-1: the command itself is the pid-namespace init (no extra reaper process); signals from
  // inside the sandbox cannot kill it, and when it exits the kernel kills everything left in the namespace.
  args.push('--as-pid-1', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', policy.hostname);
  if (policy.statusFd !== null) args.push('--json-status-fd', String(policy.statusFd));
  if (policy.seccompFd !== null) args.push('--seccomp', String(policy.seccompFd));
  for (const link of policy.symlinks) args.push('--symlink', link.target, link.path);
  for (const path of policy.readOnlyPaths) args.push('--ro-bind-try', path, path);
  args.push('--proc', '/proc', '--dev', '/dev');
  if (policy.shmBytes !== null) args.push('--size', String(policy.shmBytes));
  args.push('--tmpfs', '/dev/shm', '--remount-ro', '/dev');
  if (policy.tmpBytes !== null) args.push('--size', String(policy.tmpBytes));
  args.push('--tmpfs', '/tmp', '--dir', policy.workDir);
  for (const file of policy.files) {
    if (!isSafeFileName(file.name)) throw new Error(`bwrap policy: unsafe file name "${file.name}"`);
    args.push('--ro-bind', file.hostPath, `${policy.workDir}/${file.name}`);
  }
  if (policy.supervisorHostPath !== null) args.push('--ro-bind', policy.supervisorHostPath, SUPERVISOR_PATH);
  // The root of a bwrap sandbox is itself a tmpfs (unbounded): make it read-only after every mount.
  args.push('--remount-ro', '/', '--chdir', policy.workDir, '--clearenv');
  for (const [key, value] of Object.entries(policy.env)) args.push('--setenv', key, value);
  args.push('--', ...policy.command);
  return args;
}
