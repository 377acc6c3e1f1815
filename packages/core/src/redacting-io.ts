import { makeRedactor } from './redact';
import type { TextStream } from './terminal';

/**
 * The io with `secrets` (API keys) replaced by [redacted] in everything written to stdout and stderr: an
 * endpoint may echo the key it was sent in an error, and that text must not reach a terminal or a log.
 */
export function redactingIO<IO extends { stdout: TextStream; stderr: TextStream }>(io: IO, secrets: readonly (string | undefined)[]): IO {
  const redact = makeRedactor(secrets);
  return {
    ...io,
    stdout: {
      write: (text: string) => io.stdout.write(redact(text)),
      ...(io.stdout.isTTY === undefined ? {} : { isTTY: io.stdout.isTTY }),
      // the terminal's width stays readable through the wrapper (the summary table fits it)
      get columns() {
        return io.stdout.columns;
      },
    },
    stderr: { write: (text: string) => io.stderr.write(redact(text)), ...(io.stderr.isTTY === undefined ? {} : { isTTY: io.stderr.isTTY }) },
  };
}
