export { createSandbox, harnessSource, DEFAULTS } from './sandbox';
export { SANDBOX_ERRORS, sandboxError, isSandboxError } from './errors';
export type { SandboxErrorCode } from './errors';
export { detectSandbox, BWRAP_CANDIDATES, DEFAULT_RUN_AS_UID } from './detect';
export type { SandboxDetection, DetectOptions } from './detect';
export { buildBwrapArgs, SANDBOX_WORK_DIR } from './policy';
export type { BwrapPolicy } from './policy';
export { buildLimitedCommand, parseWrapperReport } from './limits';
export type { ResourceLimits, WrapperReport } from './limits';
export { classify, looksLikeMemoryFailure } from './classify';
export type { RunFacts, Outcome } from './classify';
export { SENTINEL_PLACEHOLDER } from './types';
export type {
  HarnessResult,
  HarnessRunRequest,
  Sandbox,
  SandboxLanguage,
  SandboxOptions,
  SandboxResult,
  SandboxRunRequest,
  SandboxStatus,
} from './types';
export { describeResult } from './text';
