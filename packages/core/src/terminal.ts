/**
 * The apps' terminal conventions, pure (the streams and the environment are passed in): whether to colour,
 * how wide the terminal is, `--json` output, and a status line redrawn in place.
 */

/** A writable stream as the apps see one (process.stdout, a test's buffer). */
export interface TextStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number | undefined;
}

/**
 * Colour or not, one rule for every command: FORCE_COLOR (non-empty, not "0"/"false") forces it, NO_COLOR (any
 * value) or TERM=dumb turns it off, otherwise colour exactly when the stream is a terminal.
 */
export function useColor(isTTY: boolean | undefined, env: Record<string, string | undefined>): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (env['NO_COLOR'] !== undefined || env['TERM'] === 'dumb') return false;
  return isTTY === true;
}

/** Columns of the terminal `stdout` is (else $COLUMNS, else 80): what a summary table must fit. */
export function terminalWidth(io: { stdout: TextStream; env: Record<string, string | undefined> }): number {
  const columns = io.stdout.isTTY ? io.stdout.columns : undefined;
  if (columns !== undefined && columns > 0) return columns;
  const fromEnv = Number(io.env['COLUMNS']);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}

/**
 * `--json` for a command that reports data: stdout carries exactly one JSON document (`emit`), and the lines
 * written for a person go to stderr instead. Without `--json`, `io` is unchanged and `emit` does nothing.
 */
export function jsonMode<IO extends { stdout: TextStream; stderr: TextStream }>(io: IO, json: boolean | undefined): { io: IO; emit(value: unknown): void } {
  if (!json) return { io, emit: () => {} };
  return { io: { ...io, stdout: io.stderr }, emit: (value) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`) };
}

/** One status line redrawn in place on a terminal (`show`), wiped before other output (`clear`); silent elsewhere. */
export function redrawnLine(stream: TextStream): { show(text: string): void; clear(): void; restore(): void } {
  let line = '';
  let shown = false;
  const tty = stream.isTTY === true;
  const clear = () => {
    if (tty && shown) stream.write('\r\x1b[2K');
    shown = false;
  };
  return {
    show(text) {
      if (!tty) return;
      line = text;
      stream.write(`\r\x1b[2K${line}`);
      shown = true;
    },
    clear,
    /** Shows the last line again (after other output was written below it). */
    restore() {
      if (tty && line && !shown) {
        stream.write(line);
        shown = true;
      }
    },
  };
}
