import { closeSync, openSync } from 'node:fs';
import { readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildSeccompFilter, seccompSupported } from './seccomp';

/**
 * What hardens every sandbox's pid 1 (the limit wrapper) against the program it supervises: an
 * execute-only copy of the shell (exec of a file the caller cannot read makes the process non-dumpable,
 * so nothing inside can open /proc/1/mem, /proc/1/fd or /proc/1/environ, or ptrace it) and the seccomp
 * filter (no ptrace or process_vm_* at all, no signals or pidfds aimed at pid 1).
 */
export interface Hardening {
  /** The host shell's bytes, written execute-only into each run's private host folder. */
  shell: Buffer;
  /** The seccomp program bwrap reads. */
  seccomp: Buffer;
}

/** Reads the shell and builds the filter; a string says why that is not possible on this host. */
export async function loadHardening(shellPath = '/bin/sh', arch: string = process.arch): Promise<Hardening | string> {
  if (!seccompSupported(arch)) return `no seccomp filter for the ${arch} architecture (supported: x64, arm64)`;
  try {
    const shell = await readFile(await realpath(shellPath));
    return { shell, seccomp: buildSeccompFilter(arch) };
  } catch (error) {
    return `cannot read the shell ${shellPath}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export interface PlacedHardening {
  supervisorHostPath: string;
  /** An fd of this process holding the filter, passed to bwrap; close() it once bwrap is started. */
  seccompFd: number;
  close(): void;
}

/** Writes the execute-only shell and the filter into `dir` (a private per-run folder) and opens the filter. */
export async function placeHardening(dir: string, hardening: Hardening): Promise<PlacedHardening> {
  const supervisorHostPath = join(dir, 'supervisor');
  const filterPath = join(dir, 'seccomp.bpf');
  // mode 0111: the sandbox user may exec it but not read it (that is what makes pid 1 non-dumpable).
  await writeFile(supervisorHostPath, hardening.shell, { mode: 0o111 });
  await writeFile(filterPath, hardening.seccomp, { mode: 0o600 });
  const seccompFd = openSync(filterPath, 'r');
  let closed = false;
  return {
    supervisorHostPath,
    seccompFd,
    close() {
      if (closed) return;
      closed = true;
      closeSync(seccompFd);
    },
  };
}
