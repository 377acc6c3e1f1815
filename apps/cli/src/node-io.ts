import { createInterface } from 'node:readline/promises';
import { installExitRelease, type ExitRelease } from '@crucibleforge/lease';
import type { CliIO } from './io';

/** The real world for the CLI: process streams, env and signals. Only the app touches these. */
export function nodeIO(): CliIO & ExitRelease {
  const controller = new AbortController();
  // A second signal (and an uncaught error) exits after giving every GPU lease back; see the lease package's installExitRelease.
  let stopping = false;
  const exits = installExitRelease({
    process,
    write: (text) => process.stderr.write(text),
    alreadyStopping: () => stopping,
    debug: Boolean(process.env['DEBUG']),
  });
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    controller.abort(new Error(`received ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `crucibleforge cases list --json | head`: a reader that goes away is not an error worth a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  return {
    releaseHeld: exits.releaseHeld,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
    async confirm(question) {
      if (!process.stdin.isTTY) return false;
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        const answer = await rl.question(`${question} [y/N] `);
        return /^y(es)?$/i.test(answer.trim());
      } finally {
        rl.close();
      }
    },
  };
}

/** Runs a CLI entry and sets the exit code; an unexpected crash prints its message, not a stack, unless DEBUG. */
export function runEntry(entry: (io: CliIO) => Promise<number>): void {
  const io = nodeIO();
  entry(io)
    .then(
      (code) => {
        process.exitCode = code;
        // Commands that started servers close them; the event loop then ends on its own.
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        process.stderr.write(`crucibleforge: ${message}\n`);
        if (process.env['DEBUG'] && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
        process.exitCode = 1;
      },
    )
    // Every command releases its own leases; this is the backstop for one that did not.
    .then(() => io.releaseHeld());
}
