/** The outside world of a CLI command (the shape of the CLI's CliIO), in memory. */
export interface MemoryIO {
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number | undefined };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  signal: AbortSignal;
  confirm(question: string): Promise<boolean>;
}

/** An in-memory io for CLI tests: captures output, fixed env and cwd, a fixed answer to every question. */
/** `tty`: stdout and stderr say they are a terminal (stdout `columns` wide, default 80). */
export function memoryIO(options: { env?: Record<string, string | undefined>; cwd?: string; confirm?: boolean; signal?: AbortSignal; tty?: boolean; columns?: number } = {}) {
  let out = '';
  let err = '';
  const io: MemoryIO = {
    stdout: { write: (text: string) => (out += text), ...(options.tty ? { isTTY: true, columns: options.columns ?? 80 } : {}) },
    stderr: { write: (text: string) => (err += text), ...(options.tty ? { isTTY: true } : {}) },
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    signal: options.signal ?? new AbortController().signal,
    confirm: async () => options.confirm ?? false,
  };
  return { io, stdout: () => out, stderr: () => err };
}
