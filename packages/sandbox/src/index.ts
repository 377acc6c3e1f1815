export { createSandbox, DEFAULTS } from './sandbox';
export { SANDBOX_ERRORS, sandboxError, isSandboxError } from './errors';
export type { SandboxErrorCode } from './errors';
export { detectSandbox, BWRAP_CANDIDATES, DEFAULT_RUN_AS_UID } from './detect';
export type { SandboxDetection, DetectOptions } from './detect';
export { buildBwrapArgs, SANDBOX_WORK_DIR, SUPERVISOR_PATH } from './policy';
export type { BwrapPolicy } from './policy';
export { buildLimitedCommand, parseWrapperReport } from './limits';
export type { ResourceLimits, WrapperReport } from './limits';
export { classify, looksLikeMemoryFailure } from './classify';
export type { RunFacts, Outcome } from './classify';
export { buildSeccompFilter, SECCOMP_POLICY } from './seccomp';
export { CHANNEL_READ_FD, CHANNEL_WRITE_FD, PAIR_REPORT_FD } from './execute';
export type {
  PairResult,
  PairRunRequest,
  PairSideRequest,
  Sandbox,
  SandboxLanguage,
  SandboxOptions,
  SandboxResult,
  SandboxRunRequest,
  SandboxStatus,
} from './types';
export { describeResult, languageOf } from './text';
