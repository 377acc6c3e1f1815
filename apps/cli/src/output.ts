/** How the CLI writes for a terminal: its width, whether to colour, and untrusted text made inert. */
import { neutralizeControls } from '@crucibleforge/core';
import type { CliIO } from './io';

/** Columns of the terminal stdout is (else $COLUMNS, else 80): what the summary table must fit. */
export function terminalWidth(io: Pick<CliIO, 'stdout' | 'env'>): number {
  const columns = io.stdout.isTTY ? io.stdout.columns : undefined;
  if (columns !== undefined && columns > 0) return columns;
  const fromEnv = Number(io.env['COLUMNS']);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}

/**
 * Colour or not, the same rule for every command: FORCE_COLOR (non-empty, not "0") forces it, NO_COLOR
 * (any value) or TERM=dumb turns it off, otherwise colour exactly when the stream is a terminal.
 */
export function useColor(isTTY: boolean | undefined, env: Record<string, string | undefined>): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (env['NO_COLOR'] !== undefined || env['TERM'] === 'dumb') return false;
  return isTTY === true;
}

/** Model output, endpoint errors and other untrusted text on its way to a terminal: controls shown, not obeyed. */
export const inert = neutralizeControls;

/**
 * `--json` for a command that reports data: stdout carries exactly one JSON document (`emit`), and the lines
 * written for a person go to stderr instead. Without `--json`, `io` is unchanged and `emit` does nothing.
 */
export function jsonMode(io: CliIO, json: boolean | undefined): { io: CliIO; emit(value: unknown): void } {
  if (!json) return { io, emit: () => {} };
  return {
    io: { ...io, stdout: io.stderr },
    emit: (value) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
  };
}

/** The usage line every data command shares. */
export const JSON_FLAG_HELP = '  --json                print the result as one JSON object on stdout (the other lines go to stderr)';
