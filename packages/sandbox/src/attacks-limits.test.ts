/**
 * Attack suite, part 2: resource abuse. Each attack runs for real under small limits; the test then
 * checks the status and that the host is untouched (no survivors, bounded memory, working network).
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSandbox } from './sandbox';
import { detection, hostCommandLines, loopbackRoundTrip, py } from './test-support';
import type { Sandbox } from './types';

const marker = String(Math.floor(Math.random() * 1e9)).padStart(9, '1');
/** The interpreter's command line in the sandbox (bwrap's own command lines mention main.py too). */
const PROGRAM_CMDLINE = '/usr/bin/python3 -E -s -B main.py';

async function survivors(text: string) {
  return (await hostCommandLines()).filter((p) => p.cmdline.includes(text) && !p.cmdline.includes('vitest'));
}

describe.skipIf(!detection.available)('attacks: limits', () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await createSandbox({ poolSize: 2 });
  });

  afterAll(async () => {
    expect(await survivors(marker)).toEqual([]);
  });

  it('contains a fork bomb to the process limit and ends every copy', async () => {
    const bomb = `import os  # ${marker}
while True:
    try:
        os.fork()
    except OSError:
        pass`;
    const running = py(sandbox, bomb, { timeoutMs: 2500, maxProcesses: 24 });
    let peak = 0;
    let done = false;
    const bombNamespaces = new Set<string>();
    void running.then(() => (done = true));
    while (!done) {
      // Other test files run sandboxed programs at the same time: count copies per pid namespace
      // (one namespace = one run), so only this run's processes are held against its limit.
      const copies = (await hostCommandLines()).filter((p) => p.uid === detection.runAsUid && p.cmdline.startsWith(PROGRAM_CMDLINE));
      const perRun = new Map<string, number>();
      for (const copy of copies) perRun.set(copy.pidns, (perRun.get(copy.pidns) ?? 0) + 1);
      peak = Math.max(peak, ...perRun.values());
      for (const [ns, count] of perRun) if (count > 4) bombNamespaces.add(ns);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const result = await running;
    expect(result.status).toBe('timeout');
    expect(peak).toBeGreaterThan(4); // it did fork...
    expect(peak).toBeLessThanOrEqual(24 - 1); // ...but never past the limit (which also counts the wrapper shell)
    expect(bombNamespaces.size).toBeGreaterThan(0);
    // Every copy ends: the namespace empties (zombies being reaped may linger for a moment).
    await vi.waitFor(async () => expect((await hostCommandLines()).filter((p) => bombNamespaces.has(p.pidns))).toEqual([]), {
      timeout: 5000,
      interval: 100,
    });
  });

  it('stops a Python memory bomb with status memory', async () => {
    const result = await py(sandbox, 'x = []\nwhile True:\n    x.append(bytearray(16 * 2**20))', { memoryMb: 128 });
    expect(result.status).toBe('memory');
    expect(result.stderr).toContain('MemoryError');
  });

  it('stops Node memory bombs (heap and buffers) with status memory', async () => {
    const heap = await sandbox.run({ language: 'node', source: 'const a = []; for (;;) a.push(new Array(1e6).fill(1.5));', memoryMb: 128, timeoutMs: 10_000 });
    expect(heap.status).toBe('memory');
    const buffers = await sandbox.run({ language: 'node', source: 'const a = []; for (;;) a.push(Buffer.alloc(64 * 2 ** 20, 1));', memoryMb: 128, timeoutMs: 10_000 });
    expect(buffers.status).toBe('memory');
  });

  it('kills a busy loop at the wall limit', async () => {
    const result = await py(sandbox, 'while True:\n    pass', { timeoutMs: 1500 });
    expect(result).toMatchObject({ status: 'timeout', signal: 'SIGKILL', exit_code: null });
  });

  it('stops a busy loop at the CPU limit (SIGXCPU) before a longer wall limit', async () => {
    const result = await py(sandbox, 'while True:\n    pass', { timeoutMs: 20_000, cpuSeconds: 1 });
    expect(result).toMatchObject({ status: 'timeout', signal: 'SIGXCPU' });
  });

  it('kills a sleep past the limit', async () => {
    const result = await py(sandbox, 'import time\nprint("going to sleep", flush=True)\ntime.sleep(60)', { timeoutMs: 1000 });
    expect(result.status).toBe('timeout');
    expect(result.stdout).toBe('going to sleep\n');
    expect(result.wall_ms).toBeGreaterThanOrEqual(1000);
  });

  it('cuts off 200 MB of stdout without buffering it on the host', async () => {
    const before = process.memoryUsage().rss;
    const result = await py(sandbox, 'import sys\nchunk = "x" * (1 << 20)\nfor _ in range(200):\n    sys.stdout.write(chunk)', {
      timeoutMs: 20_000,
    });
    const grown = process.memoryUsage().rss - before;
    expect(result.status).toBe('output_limit');
    expect(result.stdout_truncated).toBe(true);
    expect(result.stdout.length).toBe(1 << 20);
    expect(grown).toBeLessThan(100 * 2 ** 20);
  });

  it('keeps the head of an over-long stderr and flags it, without killing a run that stays under the kill threshold', async () => {
    const result = await py(sandbox, 'import sys\nsys.stderr.write("e" * 3000)\nprint("done")', { maxOutputBytes: 1000 });
    expect(result).toMatchObject({ status: 'ok', stderr_truncated: true, stdout_truncated: false, stdout: 'done\n' });
    expect(result.stderr).toBe('e'.repeat(1000));
  });

  it('bounds /tmp, /dev/shm and the file size', async () => {
    const result = await py(
      sandbox,
      `import os
def fill(folder):
    total = 0
    try:
        for i in range(1000):
            with open(f"{folder}/f{i}", "wb") as f:
                f.write(b"x" * (1 << 20))
            total += 1 << 20
    except OSError as e:
        return total, e.errno
    return total, None
print("tmp", *fill("/tmp"))
print("shm", *fill("/dev/shm"))
try:
    with open("/tmp/job/big", "wb") as f:
        f.write(b"y" * (64 << 20))
    print("big written")
except OSError as e:
    print("big", e.errno)`,
      { tmpMb: 8 },
    );
    expect(result.status).toBe('ok');
    const tmp = /^tmp (\d+) (\d+)$/m.exec(result.stdout);
    const shm = /^shm (\d+) (\d+)$/m.exec(result.stdout);
    expect(Number(tmp?.[1])).toBeLessThanOrEqual(8 * 2 ** 20);
    expect(Number(shm?.[1])).toBeLessThanOrEqual(16 * 2 ** 20);
    expect(result.stdout).not.toContain('big written');
  });

  it('ends a new-session child and a daemonised grandchild when the run times out', async () => {
    const tag = `${marker}1`;
    const running = py(
      sandbox,
      `import os, subprocess, time
subprocess.Popen(["/bin/sleep", "300.${tag}"], start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["/bin/sleep", "301.${tag}"])
    os._exit(0)
time.sleep(60)`,
      { timeoutMs: 2500 },
    );
    let seen = 0;
    let done = false;
    void running.then(() => (done = true));
    while (!done && seen < 2) {
      seen = (await survivors(tag)).length;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const result = await running;
    expect(seen).toBe(2); // the host can see them while the run lasts...
    expect(result.status).toBe('timeout');
    expect(await survivors(tag)).toEqual([]); // ...and none outlives it
  });

  it('ends a new-session child when the program exits normally', async () => {
    const tag = `${marker}2`;
    const result = await py(
      sandbox,
      `import subprocess
subprocess.Popen(["/bin/sleep", "300.${tag}"], start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print("bye")`,
    );
    expect(result).toMatchObject({ status: 'ok', stdout: 'bye\n' });
    expect(await survivors(tag)).toEqual([]);
  });

  it('contains a program that kills its parent, init and everything it can signal', async () => {
    // A host process of the very uid the sandbox runs as: kill(-1) inside must not reach it.
    const bystander = spawn('/bin/sleep', [`302.${marker}3`], {
      stdio: 'ignore',
      ...(detection.runAsUid === null ? {} : { uid: detection.runAsUid, gid: detection.runAsUid }),
    });
    try {
      const result = await py(
        sandbox,
        `import os, signal, subprocess
helper = subprocess.Popen(["/bin/sleep", "30"])
for target in (os.getppid(), 1, -1):
    try:
        os.kill(target, signal.SIGKILL)
    except OSError as e:
        print("refused", target, e.errno, flush=True)
print("helper", helper.wait(), flush=True)
print("still here, parent", os.getppid(), flush=True)`,
      );
      // The wrapper is the namespace's init: signals from inside cannot kill it. kill(-1) took the
      // program's own child (Linux spares the caller), and the run ended normally.
      expect(result).toMatchObject({ status: 'ok', exit_code: 0 });
      expect(result.stdout).toContain(`helper -9\n`);
      expect(result.stdout).toContain('still here, parent 1\n');
      expect(bystander.exitCode).toBeNull();
      expect(bystander.signalCode).toBeNull();
      expect((await survivors(`302.${marker}3`)).length).toBe(1);
    } finally {
      bystander.kill('SIGKILL');
    }
  });

  it('reports a program killed by a signal as killed', async () => {
    const result = await py(sandbox, 'import os, signal\nos.kill(os.getpid(), signal.SIGKILL)');
    expect(result).toMatchObject({ status: 'killed', signal: 'SIGKILL', exit_code: null });
  });

  it('kills the run when the caller aborts', async () => {
    const controller = new AbortController();
    const running = py(sandbox, 'import time\ntime.sleep(30)', { signal: controller.signal, timeoutMs: 30_000 });
    setTimeout(() => controller.abort(), 300);
    expect(await running).toMatchObject({ status: 'killed', signal: 'SIGKILL' });
  });

  it('leaves the host healthy: loopback works and later runs behave normally', async () => {
    expect(await loopbackRoundTrip()).toBe('pong');
    const result = await py(sandbox, 'print(sum(range(10)))');
    expect(result).toMatchObject({ status: 'ok', stdout: '45\n', exit_code: 0, sandboxed: true });
  });
});
