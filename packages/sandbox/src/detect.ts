import { access, chmod, constants, lstat, mkdtemp, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { buildLimitedCommand, type ResourceLimits } from './limits';
import { buildBwrapArgs, ETC_PATHS, SANDBOX_WORK_DIR, SUPERVISOR_PATH, SYSTEM_DIRS, type BwrapPolicy } from './policy';
import { loadHardening, placeHardening } from './supervisor';

/** What `detectSandbox` found out about this host. */
export interface SandboxDetection {
  /** bwrap ran a trivial program in the full policy. */
  available: boolean;
  /** Why not, in words (null when available). */
  reason: string | null;
  bwrapPath: string | null;
  version: string | null;
  /** The uid bwrap is launched as (null: the caller's own). Root drops to it so RLIMIT_NPROC applies. */
  runAsUid: number | null;
  /** bwrap knows `--size` (bounded tmpfs). */
  sizeSupported: boolean;
  /** bwrap knows `--disable-userns`. */
  disableUsernsSupported: boolean;
  /** RLIMIT_NPROC is enforced (false when the sandbox runs as real root, which the kernel exempts). */
  processLimitEnforced: boolean;
}

export interface DetectOptions {
  /** bwrap to use; default: the first of /usr/bin/bwrap, /usr/local/bin/bwrap, /bin/bwrap that exists. */
  bwrapPath?: string;
  /** uid to launch bwrap as when this process is root (default 65534, "nobody"); null keeps root. */
  runAsUid?: number | null;
}

export const BWRAP_CANDIDATES = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'] as const;
export const DEFAULT_RUN_AS_UID = 65534;

const PROBE_LIMITS: ResourceLimits = { cpuSeconds: 5, addressSpaceBytes: 256 * 2 ** 20, fileSizeBytes: 2 ** 20, maxProcesses: 16, maxOpenFiles: 64 };

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable among `candidates`, or null. */
export async function findExecutable(candidates: readonly string[]): Promise<string | null> {
  for (const candidate of candidates) if (await isExecutable(candidate)) return candidate;
  return null;
}

export interface HostLayout {
  readOnlyPaths: string[];
  symlinks: { path: string; target: string }[];
}

/** Which of /usr, /bin, /lib* are directories (bound) or symlinks (recreated), plus the /etc pieces. */
export async function readHostLayout(extraReadOnly: readonly string[] = []): Promise<HostLayout> {
  const readOnlyPaths: string[] = [];
  const symlinks: { path: string; target: string }[] = [];
  for (const dir of SYSTEM_DIRS) {
    try {
      const stat = await lstat(dir);
      if (stat.isSymbolicLink()) symlinks.push({ path: dir, target: await readlink(dir) });
      else if (stat.isDirectory()) readOnlyPaths.push(dir);
    } catch {
      // absent on this host: nothing to bind
    }
  }
  readOnlyPaths.push(...ETC_PATHS);
  for (const path of extraReadOnly) if (!readOnlyPaths.some((p) => path === p || path.startsWith(`${p}/`))) readOnlyPaths.push(path);
  return { readOnlyPaths, symlinks };
}

export function currentUid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

/** spawn options that launch as `uid` (and the same gid), or as ourselves when null. */
export function identity(uid: number | null): { uid?: number; gid?: number } {
  return uid === null ? {} : { uid, gid: uid };
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

/** Finds bwrap, reads its version and features, and runs a trivial program in the real policy. */
export async function detectSandbox(options: DetectOptions = {}): Promise<SandboxDetection> {
  const base: SandboxDetection = {
    available: false,
    reason: null,
    bwrapPath: null,
    version: null,
    runAsUid: null,
    sizeSupported: false,
    disableUsernsSupported: false,
    processLimitEnforced: false,
  };
  if (process.platform !== 'linux') return { ...base, reason: `bubblewrap needs Linux; this is ${process.platform}` };
  const bwrapPath = options.bwrapPath ?? (await findExecutable(BWRAP_CANDIDATES));
  if (bwrapPath === null) {
    return { ...base, reason: `bubblewrap (bwrap) not found at ${BWRAP_CANDIDATES.join(', ')}; install the "bubblewrap" package` };
  }
  if (!(await isExecutable(bwrapPath))) return { ...base, bwrapPath, reason: `bwrap not found or not executable at ${bwrapPath}` };
  const help = await execa(bwrapPath, ['--help'], { reject: false, extendEnv: false, env: {}, stdin: 'ignore', timeout: 10_000 });
  const version = await execa(bwrapPath, ['--version'], { reject: false, extendEnv: false, env: {}, stdin: 'ignore', timeout: 10_000 });
  const helpText = `${String(help.stdout)}\n${String(help.stderr)}`;
  const found: SandboxDetection = {
    ...base,
    bwrapPath,
    version: version.exitCode === 0 ? firstLine(String(version.stdout)).replace(/^bubblewrap\s+/, '') : null,
    sizeSupported: helpText.includes('--size'),
    disableUsernsSupported: helpText.includes('--disable-userns'),
  };
  const hardening = await loadHardening();
  if (typeof hardening === 'string') return { ...found, reason: hardening };
  const layout = await readHostLayout();
  const uid = currentUid();
  const dropTo = uid === 0 ? (options.runAsUid === undefined ? DEFAULT_RUN_AS_UID : options.runAsUid) : null;
  const attempts: (number | null)[] = dropTo === null ? [null] : [dropTo, null];
  const failures: string[] = [];
  for (const runAs of attempts) {
    const dir = await mkdtemp(join(tmpdir(), 'crucible-probe-'));
    await chmod(dir, 0o755);
    const placed = await placeHardening(dir, hardening);
    const policy: BwrapPolicy = {
      ...layout,
      files: [],
      workDir: SANDBOX_WORK_DIR,
      tmpBytes: found.sizeSupported ? 1 << 20 : null,
      shmBytes: found.sizeSupported ? 1 << 20 : null,
      env: { PATH: '/usr/bin:/bin' },
      disableNestedUserns: found.disableUsernsSupported,
      hostname: 'sandbox',
      statusFd: null,
      seccompFd: 8,
      supervisorHostPath: placed.supervisorHostPath,
      // The real wrapper with real limits under the real filter: proves all of it works here.
      command: buildLimitedCommand(PROBE_LIMITS, ['/bin/sh', '-c', 'exit 0'], { shell: SUPERVISOR_PATH, strict: true }),
    };
    const probing = execa(bwrapPath, buildBwrapArgs(policy), {
      reject: false,
      extendEnv: false,
      env: {},
      // execa's types allow integer fds only for 0-2; Node's spawn (its runtime) for every index.
      stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'ignore', 'ignore', 'ignore', 'ignore', placed.seccompFd] as unknown as ['ignore', 'pipe', 'pipe', 'pipe'],
      cwd: '/',
      timeout: 10_000,
      ...identity(runAs),
    });
    placed.close();
    const probe = await probing;
    await rm(dir, { recursive: true, force: true });
    if (probe.exitCode === 0) {
      const asRoot = runAs === null ? uid === 0 : runAs === 0;
      return { ...found, available: true, runAsUid: runAs, processLimitEnforced: !asRoot };
    }
    const why = String(probe.stdio[3] ?? '').includes('limits-failed') ? 'the shell could not set the resource limits' : firstLine(String(probe.stderr));
    failures.push(`${runAs === null ? 'as ourselves' : `as uid ${runAs}`}: ${why || `exit ${String(probe.exitCode)}`}`);
  }
  return { ...found, reason: `bwrap at ${bwrapPath} cannot create the sandbox (${failures.join('; ')}); user namespaces may be disabled` };
}
