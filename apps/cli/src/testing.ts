import type { CliIO } from './io';

/** An in-memory CliIO for tests: captures output, fixed env and cwd. */
export function memoryIO(
  options: { env?: Record<string, string | undefined>; cwd?: string; confirm?: boolean; signal?: AbortSignal; tty?: boolean; columns?: number } = {},
) {
  let out = '';
  let err = '';
  const io: CliIO = {
    stdout: { write: (text: string) => (out += text), ...(options.tty ? { isTTY: true, columns: options.columns ?? 80 } : {}) },
    stderr: { write: (text: string) => (err += text), ...(options.tty ? { isTTY: true } : {}) },
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    signal: options.signal ?? new AbortController().signal,
    confirm: async () => options.confirm ?? false,
  };
  return { io, stdout: () => out, stderr: () => err };
}
