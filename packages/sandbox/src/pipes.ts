import { closeSync, constants, openSync, unlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { sandboxError } from './errors';

/** One pipe as two host fds. */
export interface Pipe {
  read: number;
  write: number;
}

/** FIFOs made per mkfifo launch: their pipes wait, nameless, for pairs to come. */
const FIFO_BATCH = 16;

/**
 * Pipes for pairs (Node cannot call pipe(2)). One mkfifo launch makes a batch of FIFOs in a private host
 * folder; each is opened read-write (which never blocks and keeps its pipe alive) and its name removed at
 * once, so nothing is left on disk. A pair reopens two of them through /proc/self/fd as separate read and
 * write ends, which are blocking fds, as both sides' synchronous reads need.
 */
export class PipePool {
  private readonly idle: number[] = [];
  constructor(
    private readonly mkfifoPath: string | null,
    private readonly hostTmpDir: string,
  ) {}

  private async refill(): Promise<void> {
    if (this.mkfifoPath === null) throw sandboxError('SANDBOX_FAILED', 'a sandbox pair needs mkfifo (coreutils), which was not found');
    const dir = await mkdtemp(join(this.hostTmpDir, 'crucible-pair-'));
    try {
      const names = Array.from({ length: FIFO_BATCH }, (_, i) => join(dir, `pipe${i}`));
      const made = await execa(this.mkfifoPath, ['-m', '600', ...names], { reject: false, extendEnv: false, env: {}, stdin: 'ignore' });
      if (made.exitCode !== 0) throw sandboxError('SANDBOX_FAILED', `mkfifo failed: ${String(made.stderr).trim()}`);
      for (const name of names) {
        this.idle.push(openSync(name, constants.O_RDWR));
        unlinkSync(name);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** `count` fresh pipes, each as a separate read end and write end. */
  async take(count: number): Promise<Pipe[]> {
    while (this.idle.length < count) await this.refill();
    return this.idle.splice(0, count).map((holder) => {
      try {
        const write = openSync(`/proc/self/fd/${holder}`, constants.O_WRONLY);
        const read = openSync(`/proc/self/fd/${holder}`, constants.O_RDONLY);
        return { read, write };
      } finally {
        closeSync(holder);
      }
    });
  }
}
