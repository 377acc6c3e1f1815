/**
 * Attack suite, part 3: the program against its own supervisor (the sandbox's pid 1, the limit wrapper).
 * Without the seccomp filter and the execute-only supervisor, the same uid could PTRACE_SEIZE pid 1 and
 * freeze it, write its memory through /proc/1/mem, or read its fds; all of it must fail now, and the
 * wrapper must still report the run as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './sandbox';
import { detection, py } from './test-support';
import type { Sandbox } from './types';

const ATTACK = String.raw`
import ctypes, os, signal, json
libc = ctypes.CDLL(None, use_errno=True)
out = {}
def errno_of(rc):
    return "ok" if rc != -1 else os.strerror(ctypes.get_errno())
PTRACE_SEIZE, PTRACE_ATTACH = 0x4206, 16
out["seize"] = errno_of(libc.ptrace(PTRACE_SEIZE, 1, 0, 0))
out["attach"] = errno_of(libc.ptrace(PTRACE_ATTACH, 1, 0, 0))
for name, path, mode in (("mem", "/proc/1/mem", "r+b"), ("environ", "/proc/1/environ", "rb")):
    try:
        open(path, mode).close()
        out[name] = "ok"
    except OSError as e:
        out[name] = e.strerror
try:
    os.listdir("/proc/1/fd")
    out["fd"] = "ok"
except OSError as e:
    out["fd"] = e.strerror
for sig in ("SIGSTOP", "SIGTERM", "SIGCHLD", "SIGXCPU"):
    try:
        os.kill(1, getattr(signal, sig))
        out[sig] = "ok"
    except OSError as e:
        out[sig] = e.strerror
class IOVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
buf = ctypes.create_string_buffer(8)
local, remote = IOVec(ctypes.addressof(buf), 8), IOVec(0x400000, 8)
libc.process_vm_readv.restype = ctypes.c_ssize_t
out["vm_readv"] = errno_of(libc.process_vm_readv(1, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0))
try:
    __import__("resource").prlimit(1, __import__("resource").RLIMIT_CPU, (0, 0))
    out["prlimit"] = "ok"
except OSError as e:
    out["prlimit"] = e.strerror
# ptrace is gone even for the program's own child
pid = os.fork()
if pid == 0:
    import time
    time.sleep(5)
    os._exit(0)
out["own_child"] = errno_of(libc.ptrace(PTRACE_ATTACH, pid, 0, 0))
os.kill(pid, signal.SIGKILL)
os.waitpid(pid, 0)
out["init_state"] = [l for l in open("/proc/1/status").read().splitlines() if l.startswith("State:")][0].split()[1]
print(json.dumps(out))
`;

describe.skipIf(!detection.available)('attacks: the supervisor', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ poolSize: 2 });
  });
  afterAll(() => undefined);

  it('cannot be ptraced, read, written or signalled by the program, and still reports the run', async () => {
    const r = await py(sandbox, ATTACK, { timeoutMs: 10_000 });
    expect(r.status, r.stderr).toBe('ok');
    const out = JSON.parse(r.stdout.trim()) as Record<string, string>;
    expect(out).toEqual({
      seize: 'Operation not permitted',
      attach: 'Operation not permitted',
      mem: 'Permission denied',
      environ: 'Permission denied',
      fd: 'Permission denied',
      SIGSTOP: 'Operation not permitted',
      SIGTERM: 'Operation not permitted',
      SIGCHLD: 'Operation not permitted',
      SIGXCPU: 'Operation not permitted',
      vm_readv: 'Operation not permitted',
      prlimit: 'Operation not permitted',
      own_child: 'Operation not permitted',
      init_state: 'S',
    });
    // the wrapper survived to report the CPU time and the exit status
    expect(r.cpu_ms).not.toBeNull();
    expect(r.exit_code).toBe(0);
  });

  it('keeps a pair side unable to freeze its supervisor into a timeout', async () => {
    const r = await sandbox.runPair({
      trusted: { language: 'python', source: 'import os\nos.write(6, b"go")\nprint(os.read(5, 100))\nos.write(7, b"done")' },
      untrusted: { language: 'python', source: `import os\nos.read(5, 2)\n${ATTACK}\nos.write(6, b"back")` },
      timeoutMs: 10_000,
    });
    expect(r.report).toBe('done');
    expect(r.trusted.status).toBe('ok');
    expect(r.untrusted.stdout).toContain('"seize": "Operation not permitted"');
  });
});
