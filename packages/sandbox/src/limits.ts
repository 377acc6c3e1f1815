/**
 * Resource limits applied inside the sandbox (bwrap sets none): a tiny `/bin/sh` wrapper sets the
 * rlimits with `ulimit`, runs the program, then reports its CPU time and exit status on fd 3. Inside the
 * sandbox's own user namespace, so RLIMIT_NPROC counts only this run's processes.
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

/** Exit status of the wrapper when it could not set a limit (strict mode). */
export const LIMITS_FAILED_STATUS = 125;

/**
 * The shell lines that set the limits. Units: `-v` KiB, `-f` and `-c` 512-byte blocks. The CPU soft
 * limit is set before the hard one (setrlimit refuses soft > hard). RLIMIT_NPROC is `-u` in bash and
 * `-p` in dash. Strict: any failure ends the run with status 125 and says so on fd 3; lenient (no
 * sandbox, e.g. macOS has no RLIMIT_AS): each limit is best effort.
 */
export function limitLines(limits: ResourceLimits, strict: boolean): string[] {
  const cpu = Math.max(1, Math.ceil(limits.cpuSeconds));
  const settings = [
    `ulimit -S -t ${cpu}`,
    `ulimit -H -t ${cpu + 1}`,
    `ulimit -v ${Math.max(1, Math.floor(limits.addressSpaceBytes / 1024))}`,
    `ulimit -f ${Math.max(1, Math.floor(limits.fileSizeBytes / 512))}`,
    'ulimit -c 0',
    `ulimit -n ${Math.floor(limits.maxOpenFiles)}`,
    `{ ulimit -u ${Math.floor(limits.maxProcesses)} 2>/dev/null || ulimit -p ${Math.floor(limits.maxProcesses)}; }`,
  ];
  if (strict) return [`${settings.join(' && ')} || { echo limits-failed >&3; exit ${LIMITS_FAILED_STATUS}; }`];
  return settings.map((line) => `${line} 2>/dev/null`);
}

/**
 * The argv that applies `limits` (shell builtins: no extra process) and runs `program` under a wrapper
 * that reports on fd 3: "started", then `times` (CPU of the program and its waited-for descendants)
 * and "exit $?". The program runs without the wrapper's fds (3 report, 4 bwrap status, 8 seccomp). Pure.
 */
export function buildLimitedCommand(limits: ResourceLimits, program: readonly string[], options: { shell: string; strict: boolean }): string[] {
  const script = [...limitLines(limits, options.strict), 'echo started >&3', '"$@" 3>&- 4>&- 8>&-', 's=$?', 'times >&3', 'echo "exit $s" >&3', 'exit $s'];
  return [options.shell, '-c', script.join('\n'), 'sh', ...program];
}

export interface WrapperReport {
  /** The wrapper started, so bwrap's setup succeeded and the limits are set. */
  started: boolean;
  /** The wrapper could not set a limit (strict mode) and did not run the program. */
  limitsFailed: boolean;
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
  return { started, limitsFailed: /^limits-failed$/m.test(text), cpuMs, exitStatus: exitMatch ? Number(exitMatch[1]) : null };
}
