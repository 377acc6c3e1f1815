import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '@crucibleforge/core';
import { sandboxError } from './errors';
import type { HostLayout, SandboxDetection } from './detect';
import { STATUS_FD, SECCOMP_FD, type LaunchOutcome, type LaunchSpec } from './execute';
import { interpreterCommand, type InterpreterPaths } from './interpreters';
import { buildLimitedCommand, type ResourceLimits } from './limits';
import { buildBwrapArgs, SANDBOX_WORK_DIR, SUPERVISOR_PATH } from './policy';
import { classify } from './classify';
import type { PipePool } from './pipes';
import { placeHardening, type Hardening } from './supervisor';
import type { SandboxResult } from './types';


export const DEFAULTS = {
  timeoutMs: 15_000,
  memoryMb: 1024,
  maxProcesses: 64,
  maxOutputBytes: 1024 * 1024,
  tmpMb: 64,
  shmMb: 16,
  maxOpenFiles: 1024,
  /** A stream is cut off (status output_limit) past this multiple of maxOutputBytes. */
  outputKillFactor: 8,
} as const;

const MIB = 1024 * 1024;

/** What one createSandbox found out and keeps for every run. */
export interface Runtime {
  detection: SandboxDetection;
  sandboxed: boolean;
  interpreters: InterpreterPaths;
  layout: HostLayout;
  hostTmpDir: string;
  clock: Clock;
  /** Present whenever sandboxed (createSandbox refuses a bwrap sandbox without it). */
  hardening: Hardening | null;
  /** Where pairs get their pipes. */
  pipes: PipePool;
}

/** A validated run request. */
export interface Resolved {
  language: 'python' | 'node';
  files: Record<string, string>;
  main: string;
  timeoutMs: number;
  memoryMb: number;
  cpuSeconds: number;
  maxProcesses: number;
  capBytes: number;
  tmpMb: number;
}

function envFor(home: string): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TMPDIR: '/tmp' };
}

/** A run's private host folder (the program's files, the supervisor copy, the filter) and how to launch it. */
export interface Prepared {
  spec: Omit<LaunchSpec, 'timeoutMs' | 'signal' | 'stdin' | 'channel' | 'reportBytes'>;
  /** Close the host's copies of fds handed to the child (call once it is spawned). */
  release(): void;
  /** Remove the host folder. */
  cleanup(): Promise<void>;
}

export async function prepare(rt: Runtime, req: Resolved): Promise<Prepared> {
  const hostDir = await mkdtemp(join(rt.hostTmpDir, 'crucible-sbx-'));
  const cleanup = () => rm(hostDir, { recursive: true, force: true });
  try {
    // Readable by the unprivileged sandbox uid; nothing secret is in here, and it is read-only inside.
    await chmod(hostDir, 0o755);
    for (const [name, content] of Object.entries(req.files)) {
      await writeFile(join(hostDir, name), content, { mode: 0o644 });
    }
    const { argv, addressSpaceBytes } = interpreterCommand(req.language, rt.interpreters, req.memoryMb, req.main);
    const limits: ResourceLimits = {
      cpuSeconds: req.cpuSeconds,
      addressSpaceBytes,
      fileSizeBytes: req.tmpMb * MIB,
      maxProcesses: req.maxProcesses,
      maxOpenFiles: DEFAULTS.maxOpenFiles,
    };
    const common = {
      capBytes: req.capBytes,
      killBytes: req.capBytes * DEFAULTS.outputKillFactor,
      clock: rt.clock,
    };
    if (!rt.sandboxed) {
      const command = buildLimitedCommand(limits, argv, { shell: '/bin/sh', strict: false });
      return {
        spec: { ...common, file: command[0]!, args: command.slice(1), cwd: hostDir, uid: null, env: envFor(hostDir), killGroup: true },
        release: () => {},
        cleanup,
      };
    }
    const hardening = await placeHardening(hostDir, rt.hardening!);
    const sized = rt.detection.sizeSupported;
    const args = buildBwrapArgs({
      ...rt.layout,
      files: Object.keys(req.files).map((name) => ({ hostPath: join(hostDir, name), name })),
      workDir: SANDBOX_WORK_DIR,
      tmpBytes: sized ? req.tmpMb * MIB : null,
      shmBytes: sized ? DEFAULTS.shmMb * MIB : null,
      env: envFor('/tmp'),
      disableNestedUserns: rt.detection.disableUsernsSupported,
      hostname: 'sandbox',
      statusFd: STATUS_FD,
      seccompFd: SECCOMP_FD,
      supervisorHostPath: hardening.supervisorHostPath,
      command: buildLimitedCommand(limits, argv, { shell: SUPERVISOR_PATH, strict: true }),
    });
    return {
      spec: {
        ...common,
        file: rt.detection.bwrapPath!,
        args,
        cwd: '/',
        env: {},
        uid: rt.detection.runAsUid,
        killGroup: false,
        bwrapStatus: true,
        seccompFd: hardening.seccompFd,
      },
      release: () => hardening.close(),
      cleanup: async () => {
        hardening.close();
        await cleanup();
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** Throws SANDBOX_FAILED when the process could not be started or bwrap could not set the sandbox up. */
export function checkStarted(rt: Runtime, outcome: LaunchOutcome, what: string): LaunchOutcome {
  if (outcome.spawnError !== null) {
    throw sandboxError('SANDBOX_FAILED', `could not start ${rt.sandboxed ? 'bwrap' : 'the shell'} for ${what}: ${outcome.spawnError}`);
  }
  if (!rt.sandboxed) return outcome;
  if (outcome.report.limitsFailed || (!outcome.report.started && !outcome.facts.timedOut && !outcome.facts.aborted && !outcome.facts.outputKilled)) {
    const why = outcome.report.limitsFailed ? 'the resource limits could not be set' : outcome.stderr.text().trim().slice(0, 500);
    throw sandboxError('SANDBOX_FAILED', `bwrap could not start ${what}: ${why}`, {
      details: { exitCode: outcome.facts.exitCode },
    });
  }
  return outcome;
}

/** The result value of one finished launch. */
export function toResult(rt: Runtime, outcome: LaunchOutcome): SandboxResult {
  return {
    ...classify(outcome.facts),
    stdout: outcome.stdout.text(),
    stderr: outcome.stderr.text(),
    stdout_truncated: outcome.stdout.truncated,
    stderr_truncated: outcome.stderr.truncated,
    wall_ms: outcome.wallMs,
    cpu_ms: outcome.report.cpuMs,
    sandboxed: rt.sandboxed,
  };
}
