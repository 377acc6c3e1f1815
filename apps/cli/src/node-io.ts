import { createInterface } from 'node:readline/promises';
import { installExitRelease, type ExitRelease } from '@crucibleforge/lease';
import type { CliIO } from './io';
import { inert } from './output';

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
  // `crucibleforge run … | head -1`: a reader that goes away is not an error worth a stack trace, and not a
  // success either. Output to a closed stream is dropped; the command finishes (a run keeps writing its
  // results) and exits with its own code, so a failure stays a failure.
  const closed = new Set<NodeJS.WriteStream>();
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') {
        closed.add(stream);
        return;
      }
      throw error;
    });
  }
  const writer = (stream: NodeJS.WriteStream) => ({
    write: (text: string) => (closed.has(stream) || stream.destroyed ? false : stream.write(text)),
    isTTY: stream.isTTY === true,
    get columns() {
      return stream.columns;
    },
  });
  return {
    releaseHeld: exits.releaseHeld,
    stdout: writer(process.stdout),
    stderr: writer(process.stderr),
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
        process.stderr.write(`crucibleforge: ${inert(message)}\n`);
        if (process.env['DEBUG'] && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
        process.exitCode = io.signal.aborted ? 130 : 1;
      },
    )
    // Every command releases its own leases; this is the backstop for one that did not.
    .then(() => io.releaseHeld());
}
