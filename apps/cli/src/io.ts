/** Everything a command touches of the outside world, so commands can be tested in-process. */
export interface CliIO {
  /** `columns`: the terminal's width when stdout is one (the summary table fits it). */
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number | undefined };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Resolves when the user asks to stop (SIGINT/SIGTERM); commands with long work listen to it. */
  signal: AbortSignal;
  /** Asks a yes/no question on a terminal; resolves false when there is no terminal. */
  confirm(question: string): Promise<boolean>;
}

/** Thrown for bad arguments: the CLI prints the message and the command's usage and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface CommandModule {
  /** One or more lines shown by `crucibleforge <command> --help` and after a usage error. */
  usage: string;
  run(args: string[], io: CliIO): Promise<number>;
  /** A server (sim, gui) or a holder (lease): Ctrl-C / SIGTERM is how it normally ends, so it exits with its own code, not 130. */
  servesUntilSignal?: boolean;
}

export { EXIT_CODES as EXIT } from '@crucibleforge/core';
