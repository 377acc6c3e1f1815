/**
 * Resource limits applied inside the sandbox (bwrap sets none): `prlimit` sets the rlimits and execs a
 * tiny `/bin/sh` wrapper that runs the program, then reports its CPU time and exit status on fd 3.
 */
export interface ResourceLimits {
  /** RLIMIT_CPU soft limit in seconds (SIGXCPU); the hard limit is one second more (SIGKILL). */
  cpuSeconds: number;
  /** RLIMIT_AS in bytes. */
  addressSpaceBytes: number;
  /** RLIMIT_FSIZE in bytes: no single file written may grow past it (SIGXFSZ / EFBIG). */
  fileSizeBytes: number;
  /** RLIMIT_NPROC: tasks (processes and threads) of the sandbox user in its own user namespace. */
  maxProcesses: number;
  /** RLIMIT_NOFILE. */
  maxOpenFiles: number;
}

/** The fd the wrapper writes its report on; the program itself runs with it closed. */
export const REPORT_FD = 3;

// "$@" is the interpreter argv. `times` prints the shell's own and its children's user/system time.
const WRAPPER = [
  'echo started >&3',
  '"$@" 3>&-',
  's=$?',
  'times >&3',
  'echo "exit $s" >&3',
  'exit $s',
].join('\n');

/** The argv that applies `limits` and runs `program` under the reporting wrapper. Pure. */
export function buildLimitedCommand(
  limits: ResourceLimits,
  program: readonly string[],
  paths: { prlimit: string | null; shell: string },
): string[] {
  const wrapped = [paths.shell, '-c', WRAPPER, 'sh', ...program];
  if (paths.prlimit === null) return wrapped;
  const cpu = Math.max(1, Math.ceil(limits.cpuSeconds));
  return [
    paths.prlimit,
    `--cpu=${cpu}:${cpu + 1}`,
    `--as=${Math.floor(limits.addressSpaceBytes)}`,
    `--fsize=${Math.floor(limits.fileSizeBytes)}`,
    `--nproc=${Math.floor(limits.maxProcesses)}`,
    `--nofile=${Math.floor(limits.maxOpenFiles)}`,
    '--core=0',
    '--',
    ...wrapped,
  ];
}

export interface WrapperReport {
  /** The wrapper started, so bwrap's setup succeeded. */
  started: boolean;
  /** User + system CPU of the program and every descendant it waited for, in ms; null when not reported. */
  cpuMs: number | null;
  /** The program's status as the shell saw it ($?: 128+N for signal N); null when not reported. */
  exitStatus: number | null;
}

/** Parses the wrapper's fd-3 text. Tolerates a cut-off report (the wrapper was killed). */
export function parseWrapperReport(text: string): WrapperReport {
  const started = /^started$/m.test(text);
  const exitMatch = /^exit (\d+)$/m.exec(text);
  const times = [...text.matchAll(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/g)];
  let cpuMs: number | null = null;
  const children = times[1];
  if (exitMatch && children) {
    const seconds = (m: string | undefined, s: string | undefined) => Number(m ?? 0) * 60 + Number(s ?? 0);
    cpuMs = Math.round((seconds(children[1], children[2]) + seconds(children[3], children[4])) * 1000);
  }
  return { started, cpuMs, exitStatus: exitMatch ? Number(exitMatch[1]) : null };
}
