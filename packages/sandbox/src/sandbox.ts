import { availableParallelism, tmpdir } from 'node:os';
import pLimit from 'p-limit';
import { systemClock } from '@crucibleforge/core';
import { sandboxError } from './errors';
import { detectSandbox, findExecutable, readHostLayout } from './detect';
import { launch } from './execute';
import { mainFileName, resolveInterpreters } from './interpreters';
import { DEFAULT_REPORT_BYTES, runPairOnce } from './pair';
import { PipePool } from './pipes';
import { isSafeFileName } from './policy';
import { checkStarted, DEFAULTS, prepare, toResult, type Resolved, type Runtime } from './prepare';
import { loadHardening } from './supervisor';
import type { PairSideRequest, Sandbox, SandboxOptions, SandboxResult, SandboxRunRequest } from './types';

export { DEFAULTS } from './prepare';

function badRequest(message: string) {
  return sandboxError('SANDBOX_BAD_REQUEST', message);
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw badRequest(`sandbox request: ${name} must be a positive number, got ${String(value)}`);
  return value;
}

function resolveRequest(request: PairSideRequest & { timeoutMs?: number }, what = 'sandbox request'): Resolved {
  if (request.language !== 'python' && request.language !== 'node') {
    throw badRequest(`${what}: language must be "python" or "node", got ${JSON.stringify(request.language)}`);
  }
  if (typeof request.source !== 'string') throw badRequest(`${what}: source must be a string`);
  const main = mainFileName(request.language);
  const files: Record<string, string> = {};
  for (const [name, content] of Object.entries(request.files ?? {})) {
    if (!isSafeFileName(name)) throw badRequest(`${what}: files["${name}"] is not a plain file name (letters, digits, ._-)`);
    if (name === main) throw badRequest(`${what}: files["${name}"] would replace the program itself`);
    if (typeof content !== 'string') throw badRequest(`${what}: files["${name}"] must be a string`);
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

async function execute(rt: Runtime, req: Resolved, stdin: string | undefined, signal: AbortSignal | undefined): Promise<SandboxResult> {
  const prepared = await prepare(rt, req);
  try {
    const running = launch({
      ...prepared.spec,
      timeoutMs: req.timeoutMs,
      ...(stdin === undefined ? {} : { stdin }),
      ...(signal === undefined ? {} : { signal }),
    });
    prepared.release();
    return toResult(rt, checkStarted(rt, await running, 'the program'));
  } finally {
    await prepared.cleanup();
  }
}

/**
 * Creates a sandbox runner. Detects bwrap once; throws SANDBOX_UNAVAILABLE (sandboxError) when it is
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
  const hardening = detection.available ? await loadHardening() : null;
  if (typeof hardening === 'string') throw sandboxError('SANDBOX_UNAVAILABLE', `no usable sandbox: ${hardening}`);
  const { paths, extraReadOnly } = await resolveInterpreters(options);
  const rt: Runtime = {
    detection,
    sandboxed: detection.available,
    interpreters: paths,
    layout: await readHostLayout(extraReadOnly),
    hostTmpDir: options.hostTmpDir ?? tmpdir(),
    clock: options.clock ?? systemClock,
    hardening,
    pipes: new PipePool(await findExecutable(['/usr/bin/mkfifo', '/bin/mkfifo']), options.hostTmpDir ?? tmpdir()),
  };
  const poolSize = options.poolSize ?? availableParallelism();
  if (!Number.isInteger(poolSize) || poolSize < 1) throw badRequest(`sandbox options: poolSize must be an integer ≥ 1, got ${String(poolSize)}`);
  const limit = pLimit(poolSize);

  return {
    sandboxed: rt.sandboxed,
    async run(request) {
      const req = resolveRequest(request);
      return limit(() => execute(rt, req, request.stdin, request.signal));
    },
    async runPair(request) {
      if (request === null || typeof request !== 'object' || !request.untrusted || !request.trusted) {
        throw badRequest('pair request: give both an untrusted and a trusted side');
      }
      const timeoutMs = positive('timeoutMs', request.timeoutMs, DEFAULTS.timeoutMs);
      const side = (s: PairSideRequest, what: string) => resolveRequest({ ...s, timeoutMs }, `pair request (${what})`);
      const sides = {
        untrusted: side(request.untrusted, 'untrusted'),
        trusted: side(request.trusted, 'trusted'),
        timeoutMs,
        reportBytes: Math.floor(positive('maxReportBytes', request.maxReportBytes, DEFAULT_REPORT_BYTES)),
        ...(request.signal ? { signal: request.signal } : {}),
      };
      return limit(() => runPairOnce(rt, sides));
    },
  };
}
