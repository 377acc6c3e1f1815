/** Helpers shared by the attack tests (not exported from the package). */
import { readdir, readFile, readlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { detectSandbox } from './detect';
import type { Sandbox, SandboxRunRequest } from './types';

export const detection = await detectSandbox();

/** Runs Python `source` with small limits suited to a 2-core machine. */
export function py(sandbox: Sandbox, source: string, extra: Partial<SandboxRunRequest> = {}) {
  return sandbox.run({ language: 'python', source, timeoutMs: 5000, memoryMb: 256, ...extra });
}

/** Command lines of every host process (as seen from the test, outside the sandbox). */
export async function hostCommandLines(): Promise<{ pid: number; cmdline: string; uid: number; pidns: string }[]> {
  const found: { pid: number; cmdline: string; uid: number; pidns: string }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      const status = await readFile(`/proc/${entry}/status`, 'utf8');
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
      const pidns = await readlink(`/proc/${entry}/ns/pid`).catch(() => '');
      found.push({ pid: Number(entry), cmdline, uid, pidns });
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** A loopback HTTP round trip: the host's own networking and event loop still work. */
export async function loopbackRoundTrip(): Promise<string> {
  const server: Server = createServer((_req, res) => res.end('pong'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`);
    return await response.text();
  } finally {
    server.close();
  }
}
