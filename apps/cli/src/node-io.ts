import { createInterface } from 'node:readline/promises';
import type { CliIO } from './io';

/** The real world for the CLI: process streams, env and signals. Only the app touches these. */
export function nodeIO(): CliIO {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort(new Error(`received ${signal}`));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // `crucibleforge cases list --json | head`: a reader that goes away is not an error worth a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  return {
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
  entry(io).then(
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
  );
}
