/** The tail of the long-running server commands (`gui`, `sim`): say where it listens, serve until Ctrl-C, close. */
import { intFlag } from './args';
import { EXIT, UsageError, type CliIO } from './io';

/** The listening flags both server commands take. */
export const LISTEN_OPTIONS = { port: { type: 'string' }, host: { type: 'string' } } as const;

/** --port N and --host H, checked (0–65535, not blank); undefined where not given. */
export function listenFlags(values: { port?: string | undefined; host?: string | undefined }): { port: number | undefined; host: string | undefined } {
  const port = values.port === undefined ? undefined : intFlag('port', values.port, 0, 0);
  if (port !== undefined && port > 65535) throw new UsageError(`--port must be at most 65535, got "${values.port}"`);
  if (values.host !== undefined && values.host.trim() === '') throw new UsageError('--host must not be empty');
  return { port, host: values.host };
}

/** Resolves when the CLI's signal aborts (Ctrl-C, SIGTERM), at once when it already has. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    if (signal.aborted) return done();
    signal.addEventListener('abort', () => done(), { once: true });
  });
}

export interface ServeOptions {
  /** Lines printed once the server listens ("Press Ctrl-C to stop." is added). */
  banner: string[];
  /** Printed when the signal arrives, before closing. */
  stopping?: string;
  close(): Promise<void>;
  /** The closing line, built after `close` (so it can report what the server saw). */
  stopped(): string;
}

/** Prints the banner, waits for the stop signal, closes the server and says so; exit code 0. */
export async function serveUntilSignal(io: CliIO, options: ServeOptions): Promise<number> {
  io.stdout.write([...options.banner, 'Press Ctrl-C to stop.', ''].join('\n'));
  await untilAborted(io.signal);
  if (options.stopping) io.stdout.write(`${options.stopping}\n`);
  await options.close();
  io.stdout.write(`${options.stopped()}\n`);
  return EXIT.ok;
}
