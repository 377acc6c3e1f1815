/** The outside world of a CLI command (the shape of the CLI's CliIO), in memory. */
export interface MemoryIO {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  signal: AbortSignal;
  confirm(question: string): Promise<boolean>;
}

/** An in-memory io for CLI tests: captures output, fixed env and cwd, a fixed answer to every question. */
export function memoryIO(options: { env?: Record<string, string | undefined>; cwd?: string; confirm?: boolean; signal?: AbortSignal } = {}) {
  let out = '';
  let err = '';
  const io: MemoryIO = {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    signal: options.signal ?? new AbortController().signal,
    confirm: async () => options.confirm ?? false,
  };
  return { io, stdout: () => out, stderr: () => err };
}
