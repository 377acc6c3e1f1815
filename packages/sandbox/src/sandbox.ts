import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { systemClock } from '@crucibleforge/core';
import { sandboxError } from './errors';
import { classify } from './classify';
import { detectSandbox, readHostLayout, type HostLayout, type SandboxDetection } from './detect';
import { launch, STATUS_FD, type LaunchOutcome } from './execute';
import { interpreterCommand, mainFileName, resolveInterpreters, type InterpreterPaths } from './interpreters';
import { buildLimitedCommand, type ResourceLimits } from './limits';
import { buildBwrapArgs, isSafeFileName, SANDBOX_WORK_DIR } from './policy';
import {
  SENTINEL_PLACEHOLDER,
  type HarnessResult,
  type HarnessRunRequest,
  type Sandbox,
  type SandboxOptions,
  type SandboxResult,
  type SandboxRunRequest,
} from './types';


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

function badRequest(message: string) {
  return sandboxError('SANDBOX_BAD_REQUEST', message);
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw badRequest(`sandbox request: ${name} must be a positive number, got ${String(value)}`);
  return value;
}

interface Resolved {
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

function resolveRequest(request: SandboxRunRequest): Resolved {
  if (request.language !== 'python' && request.language !== 'node') {
    throw badRequest(`sandbox request: language must be "python" or "node", got ${JSON.stringify(request.language)}`);
  }
  if (typeof request.source !== 'string') throw badRequest('sandbox request: source must be a string');
  const main = mainFileName(request.language);
  const files: Record<string, string> = {};
  for (const [name, content] of Object.entries(request.files ?? {})) {
    if (!isSafeFileName(name)) throw badRequest(`sandbox request: files["${name}"] is not a plain file name (letters, digits, ._-)`);
    if (name === main) throw badRequest(`sandbox request: files["${name}"] would replace the program itself`);
    if (typeof content !== 'string') throw badRequest(`sandbox request: files["${name}"] must be a string`);
    files[name] = content;
  }
  files[main] = request.source;
  const timeoutMs = positive('timeoutMs', request.timeoutMs, DEFAULTS.timeoutMs);
  return {
    language: request.language,
    files,
    main,
    timeoutMs,
    memoryMb: Math.ceil(positive('memoryMb', request.memoryMb, DEFAULTS.memoryMb)),
    cpuSeconds: Math.ceil(positive('cpuSeconds', request.cpuSeconds, timeoutMs / 1000)),
    maxProcesses: Math.ceil(positive('maxProcesses', request.maxProcesses, DEFAULTS.maxProcesses)),
    capBytes: Math.floor(positive('maxOutputBytes', request.maxOutputBytes, DEFAULTS.maxOutputBytes)),
    tmpMb: Math.ceil(positive('tmpMb', request.tmpMb, DEFAULTS.tmpMb)),
  };
}

function failIfNotStarted(outcome: LaunchOutcome, what: string): LaunchOutcome {
  if (outcome.spawnError === null) return outcome;
  throw sandboxError('SANDBOX_FAILED', `could not start ${what}: ${outcome.spawnError}`);
}

interface Runtime {
  detection: SandboxDetection;
  sandboxed: boolean;
  interpreters: InterpreterPaths;
  layout: HostLayout;
  hostTmpDir: string;
  clock: NonNullable<SandboxOptions['clock']>;
}

function envFor(home: string): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TMPDIR: '/tmp' };
}

async function runOnce(rt: Runtime, req: Resolved, stdin: string | undefined, signal: AbortSignal | undefined, token: string | null) {
  const hostDir = await mkdtemp(join(rt.hostTmpDir, 'crucible-sbx-'));
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
    const command = buildLimitedCommand(limits, argv, { shell: '/bin/sh', strict: rt.sandboxed });
    const common = {
      env: {},
      timeoutMs: req.timeoutMs,
      capBytes: req.capBytes,
      killBytes: req.capBytes * DEFAULTS.outputKillFactor,
      token,
      clock: rt.clock,
      ...(stdin === undefined ? {} : { stdin }),
      ...(signal === undefined ? {} : { signal }),
    };
    if (!rt.sandboxed) {
      return failIfNotStarted(await launch({
        ...common,
        file: command[0]!,
        args: command.slice(1),
        cwd: hostDir,
        uid: null,
        env: envFor(hostDir),
        killGroup: true,
      }), 'the shell');
    }
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
      command,
    });
    const outcome = failIfNotStarted(
      await launch({
        ...common,
        file: rt.detection.bwrapPath!,
        args,
        cwd: '/',
        uid: rt.detection.runAsUid,
        killGroup: false,
        bwrapStatus: true,
      }),
      'bwrap',
    );
    if (outcome.report.limitsFailed || (!outcome.report.started && !outcome.facts.timedOut && !outcome.facts.aborted && !outcome.facts.outputKilled)) {
      const why = outcome.report.limitsFailed ? 'the resource limits could not be set' : outcome.stderr.text().trim().slice(0, 500);
      throw sandboxError('SANDBOX_FAILED', `bwrap could not start the program: ${why}`, {
        details: { exitCode: outcome.facts.exitCode },
      });
    }
    return outcome;
  } finally {
    await rm(hostDir, { recursive: true, force: true });
  }
}

async function execute(rt: Runtime, req: Resolved, stdin: string | undefined, signal: AbortSignal | undefined, token: string | null) {
  const outcome = await runOnce(rt, req, stdin, signal, token);
  const verdict = classify(outcome.facts);
  const result: SandboxResult = {
    ...verdict,
    stdout: outcome.stdout.text(),
    stderr: outcome.stderr.text(),
    stdout_truncated: outcome.stdout.truncated,
    stderr_truncated: outcome.stderr.truncated,
    wall_ms: outcome.wallMs,
    cpu_ms: outcome.report.cpuMs,
    sandboxed: rt.sandboxed,
  };
  return { result, sentinelSeen: outcome.stdout.tokenSeen };
}

/** Joins the program and the harness into one source, the harness's placeholder replaced by `token`. */
export function harnessSource(request: Pick<HarnessRunRequest, 'program' | 'harness'>, token: string): string {
  return `${request.program}\n\n${request.harness.split(SENTINEL_PLACEHOLDER).join(token)}\n`;
}

/**
 * Creates a sandbox runner. Detects bwrap once; throws CrucibleError SANDBOX_UNAVAILABLE when it is
 * unusable and `allowUnsandboxed` is not set.
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const detection = await detectSandbox({
    ...(options.bwrapPath === undefined ? {} : { bwrapPath: options.bwrapPath }),
    ...(options.runAsUid === undefined ? {} : { runAsUid: options.runAsUid }),
  });
  if (!detection.available && !options.allowUnsandboxed) {
    throw sandboxError(
      'SANDBOX_UNAVAILABLE',
      `no usable sandbox: ${detection.reason ?? 'unknown reason'}. Refusing to run model-written code without one (allowUnsandboxed / --allow-unsandboxed overrides).`,
      { details: { ...detection } },
    );
  }
  const { paths, extraReadOnly } = await resolveInterpreters(options);
  const rt: Runtime = {
    detection,
    sandboxed: detection.available,
    interpreters: paths,
    layout: await readHostLayout(extraReadOnly),
    hostTmpDir: options.hostTmpDir ?? tmpdir(),
    clock: options.clock ?? systemClock,
  };
  const poolSize = options.poolSize ?? availableParallelism();
  if (!Number.isInteger(poolSize) || poolSize < 1) throw badRequest(`sandbox options: poolSize must be an integer ≥ 1, got ${String(poolSize)}`);
  const limit = pLimit(poolSize);

  return {
    sandboxed: rt.sandboxed,
    async run(request) {
      const req = resolveRequest(request);
      const { result } = await limit(() => execute(rt, req, request.stdin, request.signal, null));
      return result;
    },
    async runHarness(request) {
      if (typeof request.program !== 'string' || typeof request.harness !== 'string') {
        throw badRequest('harness request: program and harness must be strings');
      }
      if (!request.harness.includes(SENTINEL_PLACEHOLDER)) {
        throw badRequest(`harness request: the harness never prints ${SENTINEL_PLACEHOLDER}, so it could never pass`);
      }
      const token = `CRUCIBLE-PASS-${randomBytes(16).toString('hex')}`;
      const req = resolveRequest({ ...request, source: harnessSource(request, token) });
      const { result, sentinelSeen } = await limit(() => execute(rt, req, request.stdin, request.signal, token));
      const harnessResult: HarnessResult = {
        ...result,
        // The token is per run and worthless afterwards; show the placeholder so outputs compare across runs.
        stdout: result.stdout.split(token).join(SENTINEL_PLACEHOLDER),
        sentinel_seen: sentinelSeen,
        passed: sentinelSeen && result.status === 'ok',
      };
      return harnessResult;
    },
  };
}
