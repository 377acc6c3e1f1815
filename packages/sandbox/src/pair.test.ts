/** The pair API: two real sandboxes joined by the host's pipes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './sandbox';
import { detection } from './test-support';
import type { PairRunRequest, Sandbox } from './types';

/** Python framing shared by both sides in these tests: one line per message. */
const LINES = `import os
def send(text):
    os.write(6, (text + "\\n").encode())
def recv():
    data = b""
    while not data.endswith(b"\\n"):
        chunk = os.read(5, 1)
        if not chunk:
            return None
        data += chunk
    return data.decode().rstrip("\\n")
def report(text):
    os.write(7, (text + "\\n").encode())
`;

const ECHO = `${LINES}
while True:
    msg = recv()
    if msg is None:
        break
    send("echo " + msg)
`;

describe.skipIf(!detection.available)('runPair', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ poolSize: 2 });
  });
  afterAll(() => undefined);
  const pair = (trusted: string, untrusted: string, extra: Partial<PairRunRequest> = {}) =>
    sandbox.runPair({
      trusted: { language: 'python', source: trusted, memoryMb: 256 },
      untrusted: { language: 'python', source: untrusted, memoryMb: 256 },
      timeoutMs: 10_000,
      ...extra,
    });

  it('joins the two sides both ways and hands the host the trusted report', async () => {
    const r = await pair(`${LINES}\nfor word in ("a", "b"):\n    send(word)\n    report(recv())\n`, ECHO);
    expect(r.report).toBe('echo a\necho b\n');
    expect(r.trusted).toMatchObject({ status: 'ok', exit_code: 0, sandboxed: true });
    // the untrusted side saw EOF when the trusted one ended and left by itself
    expect(r.untrusted).toMatchObject({ status: 'ok', exit_code: 0 });
    expect(r.untrusted_stopped).toBe(false);
    expect(r.cpu_ms).toBe((r.trusted.cpu_ms ?? NaN) + (r.untrusted.cpu_ms ?? NaN));
  });

  it('gives each side its own files, processes and fds: the untrusted side sees nothing of the trusted one', async () => {
    const trusted = `${LINES}\nsend("look")\nreport(recv())\n`;
    const untrusted = `${LINES}
import os
recv()
pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
cmdlines = [open(f"/proc/{p}/cmdline", "rb").read().decode(errors="replace") for p in pids if os.path.exists(f"/proc/{p}/cmdline")]
fds = sorted(int(x) for x in os.listdir("/proc/self/fd"))
send(repr((sorted(os.listdir(".")), any("expected-secret" in c for c in cmdlines), 7 in fds, len(pids) <= 3)))
`;
    const r = await sandbox.runPair({
      trusted: { language: 'python', source: trusted, files: { 'secret.txt': 'expected-secret' }, memoryMb: 256 },
      untrusted: { language: 'python', source: untrusted, memoryMb: 256 },
      timeoutMs: 10_000,
    });
    expect(r.report).toBe("(['main.py'], False, False, True)\n");
  });

  it('sees EOF on the trusted side when the untrusted side dies', async () => {
    const r = await pair(`${LINES}\nreport(repr(recv()))\n`, 'import os\nos._exit(3)');
    expect(r.report).toBe('None\n');
    expect(r.untrusted).toMatchObject({ status: 'error', exit_code: 3 });
    expect(r.trusted.status).toBe('ok');
  });

  it('kills an untrusted side that outlives the trusted one (after a short grace)', async () => {
    const r = await pair(`${LINES}\nreport("done")\n`, 'import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nwhile True:\n    time.sleep(0.05)');
    expect(r.report).toBe('done\n');
    expect(r.untrusted_stopped).toBe(true);
    expect(r.untrusted.status).toBe('killed');
    expect(r.cpu_ms).toBeNull();
  });

  it('kills both at the shared wall limit', async () => {
    const r = await pair(`${LINES}\nsend("x")\nreport("sent")\nrecv()\n`, 'import time\ntime.sleep(60)', { timeoutMs: 1500 });
    expect(r.trusted.status).toBe('timeout');
    expect(r.untrusted.status).toBe('timeout');
    expect(r.report).toBe('sent\n');
  });

  it('gives Node blocking channel fds (readSync waits instead of failing with EAGAIN)', async () => {
    const io = `const fs = require('node:fs');
function recv() { const b = Buffer.alloc(64); const n = fs.readSync(5, b, 0, 64, null); return b.subarray(0, n).toString(); }
function send(t) { fs.writeSync(6, t); }`;
    const r = await sandbox.runPair({
      trusted: { language: 'node', source: `${io}\nsend('hi');\nfs.writeSync(7, recv());` },
      untrusted: { language: 'node', source: `${io}\nconst m = recv();\nsetTimeout(() => send('got ' + m), 200);` },
      timeoutMs: 10_000,
    });
    expect(r.report).toBe('got hi');
    expect(r.trusted.status).toBe('ok');
  });

  it('rejects a request without both sides', async () => {
    await expect(sandbox.runPair({ trusted: { language: 'python', source: '' } } as unknown as PairRunRequest)).rejects.toThrow(/both an untrusted and a trusted side/);
  });
});
