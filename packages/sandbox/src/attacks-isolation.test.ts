/**
 * Attack suite, part 1: what the sandboxed program can reach. Each attack is a real program run in the
 * real sandbox; the test then checks the host.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './sandbox';
import { detection, loopbackRoundTrip, py } from './test-support';
import type { Sandbox } from './types';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const nonce = Math.random().toString(36).slice(2, 10);

it('the sandbox is available wherever bwrap is installed (CI installs it: these attacks must not skip there)', () => {
  if (existsSync('/usr/bin/bwrap') && process.platform === 'linux') expect(detection.reason).toBeNull();
  // On CI (CI set) the attack suite must really run: a missing or unusable bwrap fails here instead of skipping.
  if (process.env['CI']) expect(detection.available, `no usable sandbox on CI: ${detection.reason}`).toBe(true);
  if (detection.available) expect(detection.processLimitEnforced).toBe(true);
});

describe.skipIf(!detection.available)('attacks: reach', () => {
  let sandbox: Sandbox;
  let listener: Server;
  let listenerPort = 0;
  let accepted = 0;
  let decoyHome = '';
  let decoyRepoDir = '';
  const decoySecret = `secret-${nonce}-do-not-leak`;
  const decoyKey = `sk-decoy-${nonce}`;

  beforeAll(async () => {
    sandbox = await createSandbox({ poolSize: 2 });
    listener = createServer((socket) => {
      accepted++;
      socket.on('error', () => {});
      socket.end('hello');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    listenerPort = (listener.address() as { port: number }).port;
    // A decoy home: world-readable and world-writable, so only invisibility can protect it.
    decoyHome = await mkdtemp(join(tmpdir(), 'crucible-home-'));
    await chmod(decoyHome, 0o777);
    await writeFile(join(decoyHome, '.secret'), decoySecret, { mode: 0o644 });
    // A world-writable folder inside the repository (node_modules is git-ignored).
    decoyRepoDir = join(repoRoot, 'packages/sandbox/node_modules', `.attack-${nonce}`);
    await mkdir(decoyRepoDir, { recursive: true });
    await chmod(decoyRepoDir, 0o777);
  });

  afterAll(async () => {
    listener?.close();
    await rm(decoyHome, { recursive: true, force: true });
    await rm(decoyRepoDir, { recursive: true, force: true });
  });

  it('cannot connect to a loopback listener the host opened', async () => {
    const result = await py(
      sandbox,
      `import socket
try:
    socket.create_connection(("127.0.0.1", ${listenerPort}), timeout=1).recv(5)
    print("CONNECTED")
except OSError as e:
    print("BLOCKED", type(e).__name__)`,
    );
    expect(result.status).toBe('ok');
    expect(result.stdout).toMatch(/^BLOCKED/);
    expect(accepted).toBe(0);
  });

  it('cannot connect to an outside address', async () => {
    const result = await py(
      sandbox,
      `import socket
for addr in [("1.1.1.1", 80), ("8.8.8.8", 53)]:
    try:
        socket.create_connection(addr, timeout=1)
        print("CONNECTED", addr)
    except OSError as e:
        print("BLOCKED", e.errno)`,
    );
    expect(result.stdout).not.toContain('CONNECTED');
    expect(result.stdout.match(/BLOCKED/g)).toHaveLength(2);
  });

  it('cannot resolve names', async () => {
    const result = await py(
      sandbox,
      `import socket
for name in ["example.com", "localhost.localdomain", "github.com"]:
    try:
        print("RESOLVED", socket.getaddrinfo(name, 443)[0][4])
    except OSError as e:
        print("NO-DNS", type(e).__name__)`,
    );
    expect(result.stdout).not.toContain('RESOLVED');
    expect(result.stdout.match(/NO-DNS/g)).toHaveLength(3);
  });

  // (The decoy home lies under the host's /tmp; in the sandbox /tmp is private, so that path does not exist.)
  it('cannot write to /etc, the home directory, the repository, /var/tmp or /', async () => {
    const targets = [
      `/etc/crucible-${nonce}`,
      join(homedir(), `crucible-${nonce}`),
      join(decoyHome, `crucible-${nonce}`),
      join(repoRoot, `crucible-${nonce}`),
      join(decoyRepoDir, `crucible-${nonce}`),
      `/var/tmp/crucible-${nonce}`,
      `/crucible-${nonce}`,
      `/usr/crucible-${nonce}`,
    ];
    const result = await py(
      sandbox,
      `import os
for path in ${JSON.stringify(targets)}:
    try:
        with open(path, "w") as f:
            f.write("pwned")
        print("WROTE", path)
    except OSError as e:
        print("DENIED", e.errno, path)`,
    );
    expect(result.stdout).not.toContain('WROTE');
    expect(result.stdout.match(/DENIED/g)).toHaveLength(targets.length);
    for (const target of targets) expect(existsSync(target), target).toBe(false);
    expect(await readdir(decoyRepoDir)).toEqual([]);
    expect((await readdir(decoyHome)).sort()).toEqual(['.secret']);
  });

  it('sees neither the home directory, the repository, nor the host /tmp', async () => {
    const result = await py(
      sandbox,
      `import os
for path in ${JSON.stringify([homedir(), decoyHome, repoRoot, join(repoRoot, 'package.json'), '/var/tmp', '/home', '/root'])}:
    print("VISIBLE" if os.path.exists(path) else "ABSENT", path)
print("TMP", sorted(os.listdir("/tmp")))`,
    );
    expect(result.stdout).not.toContain('VISIBLE');
    expect(result.stdout).toContain("TMP ['job']");
  });

  it('cannot read a decoy secret in the home directory nor an API key in the parent environment', async () => {
    const savedHome = process.env.HOME;
    process.env.CRUCIBLE_DECOY_API_KEY = decoyKey;
    process.env.HOME = decoyHome;
    try {
      const result = await py(
        sandbox,
        `import os, glob
print(dict(os.environ))
print("HOME", os.path.expanduser("~"))
for path in [${JSON.stringify(join(decoyHome, '.secret'))}, os.path.expanduser("~/.secret")] + glob.glob("/proc/*/environ"):
    try:
        print(path, open(path, "rb").read())
    except OSError as e:
        print("DENIED", path, e.errno)`,
      );
      expect(result.status).toBe('ok');
      expect(result.stdout).toContain('HOME /tmp');
      expect(result.stdout).toContain('DENIED');
      expect(result.stdout).not.toContain(decoySecret);
      expect(result.stdout).not.toContain(decoyKey);
      expect(result.stderr).not.toContain(decoyKey);
    } finally {
      delete process.env.CRUCIBLE_DECOY_API_KEY;
      process.env.HOME = savedHome;
    }
  });

  it('sees only its own processes in /proc', async () => {
    const result = await py(
      sandbox,
      `import os
pids = [p for p in os.listdir("/proc") if p.isdigit()]
print(len(pids))
for p in pids:
    try:
        print(p, open(f"/proc/{p}/cmdline", "rb").read().replace(b"\\0", b" ").decode())
    except OSError:
        pass`,
    );
    const count = Number(result.stdout.split('\n')[0]);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(4); // bwrap's init, the wrapper shell, python
    expect(result.stdout).not.toMatch(/vitest|node |process_api|sshd/);
    expect(result.stdout).toContain('main.py');
  });

  it('runs with no capabilities, as an unprivileged user, and cannot create nested namespaces', async () => {
    const result = await py(
      sandbox,
      `import os
status = open("/proc/self/status").read()
print([l for l in status.splitlines() if l.startswith(("CapEff", "CapPrm", "CapBnd"))])
print("uid", os.getuid())
try:
    os.unshare(os.CLONE_NEWUSER)
    print("UNSHARED")
except (OSError, AttributeError) as e:
    print("NO-UNSHARE", type(e).__name__)`,
    );
    expect(result.stdout).toContain("'CapEff:\\t0000000000000000'");
    expect(result.stdout).not.toContain('uid 0');
    expect(result.stdout).not.toContain('UNSHARED');
  });

  it('leaves the host healthy', async () => {
    expect(await loopbackRoundTrip()).toBe('pong');
  });
});
