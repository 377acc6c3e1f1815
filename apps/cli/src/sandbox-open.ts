/** The one way a command opens the sandbox: `$CRUCIBLEFORGE_BWRAP` honoured, unavailability and unsandboxed runs said on stderr. */
import { createSandbox, isSandboxError, type Sandbox } from '@crucibleforge/sandbox';
import type { CliIO } from './io';

export interface OpenSandboxOptions {
  /** The prefix of what is said: `crucibleforge run`, `bench-llm`. */
  who: string;
  /** Run without bwrap when it is unusable (limits that remain still apply). */
  allowUnsandboxed: boolean;
  poolSize?: number;
  /** Say nothing (the caller explains a missing or an unsandboxed sandbox its own way). */
  quiet?: boolean;
}

/** The sandbox, or null when bubblewrap is unusable and running unsandboxed was not allowed. */
export async function openSandbox(io: CliIO, o: OpenSandboxOptions): Promise<Sandbox | null> {
  try {
    return await create(io, o);
  } catch (error) {
    if (!isSandboxError(error, 'SANDBOX_UNAVAILABLE')) throw error;
    if (!o.quiet) io.stderr.write(`${o.who}: ${error.message}\nModel-written code is only ever run sandboxed; install bubblewrap, or pass --allow-unsandboxed to accept the risk.\n`);
    return null;
  }
}

async function create(io: CliIO, o: OpenSandboxOptions): Promise<Sandbox> {
  const bwrapPath = io.env['CRUCIBLEFORGE_BWRAP'] || undefined;
  const sandbox = await createSandbox({ allowUnsandboxed: o.allowUnsandboxed, ...(bwrapPath ? { bwrapPath } : {}), ...(o.poolSize ? { poolSize: o.poolSize } : {}) });
  if (!sandbox.sandboxed && !o.quiet) io.stderr.write(`${o.who}: WARNING: bwrap is unavailable; code runs WITHOUT a sandbox (--allow-unsandboxed)\n`);
  return sandbox;
}

/**
 * A sandbox made on first use (a command that may need none): `$CRUCIBLEFORGE_BWRAP` honoured, an unsandboxed
 * run said on stderr; throws SANDBOX_UNAVAILABLE (exit 3) when bubblewrap is unusable and that was not allowed.
 */
export function lazySandbox(io: CliIO, o: Omit<OpenSandboxOptions, 'quiet'>): () => Promise<Sandbox> {
  let made: Promise<Sandbox> | null = null;
  return () => (made ??= create(io, o));
}
