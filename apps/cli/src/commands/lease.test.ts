import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLeaseServerDouble, type LeaseServerDouble } from '@crucibleforge/lease/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CliIO } from '../io';
import { main } from '../main';
import { memoryIO } from '@crucibleforge/testkit';

// vi.waitFor gives up after 1 s by default: loading a command on a busy machine can take longer (not a time check)
const SETTLE = { timeout: 15_000 };

let double: LeaseServerDouble;
let dir: string;
beforeEach(async () => {
  double = await startLeaseServerDouble({ gpus: [0, 1, 2] });
  dir = await mkdtemp(join(tmpdir(), 'cf-cli-lease-'));
});
afterEach(async () => {
  await double.close();
  await rm(dir, { recursive: true, force: true });
});

/** memoryIO with a signal the test can fire (Ctrl-C). */
function controllableIO(env: Record<string, string> = {}) {
  const t = memoryIO({ env: { HOME: dir, ...env } });
  const controller = new AbortController();
  const io: CliIO = { ...t.io, signal: controller.signal };
  return { ...t, io, interrupt: () => controller.abort(new Error('received SIGINT')) };
}

describe('crucibleforge lease acquire', () => {
  it('holds a server lease until Ctrl-C, printing its id, then releases it', async () => {
    const t = controllableIO();
    const running = main(['lease', 'acquire', '--server', `${double.url}/v1`, '--devices', '0,1', '--model', 'org/m', '--reason', 'cli test', '--ttl-s', '900'], t.io);
    await vi.waitFor(() => expect(t.stdout()).toContain('press Ctrl-C'), SETTLE);
    const [id] = [...double.state.leases.keys()];
    expect(t.stdout()).toContain(`lease ${id} held on GPU 0,1`);
    expect(double.requests.find((r) => r.method === 'POST')?.body).toMatchObject({ devices: [0, 1], model_ids: ['org/m'], reason: 'cli test', idle_ttl_s: 900, priority: 2 });
    t.interrupt();
    expect(await running).toBe(0);
    expect(double.state.released).toEqual([id]);
    expect(t.stdout()).toContain(`released lease ${id}`);
  });

  it('leases every GPU the server reports when --devices is omitted', async () => {
    const t = controllableIO();
    const running = main(['lease', 'acquire', '--server', double.url, '--json'], t.io);
    await vi.waitFor(() => expect(t.stdout()).toContain('"event":"held"'), SETTLE);
    expect(JSON.parse(t.stdout().split('\n')[0]!)).toMatchObject({ event: 'held', kind: 'remote', devices: [0, 1, 2] });
    t.interrupt();
    expect(await running).toBe(0);
    expect(JSON.parse(t.stdout().trim().split('\n').at(-1)!)).toMatchObject({ event: 'released', outcome: 'released' });
  });

  it('--detach prints the id and leaves the lease standing for a later release --id', async () => {
    const t = controllableIO();
    expect(await main(['lease', 'acquire', '--server', double.url, '--devices', '2', '--detach'], t.io)).toBe(0);
    const id = t.stdout().trim();
    expect(double.state.leases.has(id)).toBe(true);
    expect(t.stderr()).toContain(`lease release --server ${double.url} --id ${id}`);

    const r = controllableIO();
    expect(await main(['lease', 'release', '--server', double.url, '--id', id], r.io)).toBe(0);
    expect(r.stdout()).toBe(`released lease ${id}\n`);
    expect(double.state.leases.size).toBe(0);
    const again = controllableIO();
    expect(await main(['lease', 'release', '--server', double.url, '--id', id, '--json'], again.io)).toBe(0);
    expect(JSON.parse(again.stdout())).toEqual({ event: 'released', id, outcome: 'already-gone' });
  });

  it('names the holder and exits 1 when the cards stay taken (--wait-s 0)', async () => {
    double.state.addLease({ devices: [1], holder: 'comfyui-render', reason: 'upscale', idle_ttl_s: null });
    const t = controllableIO();
    expect(await main(['lease', 'acquire', '--server', double.url, '--devices', '1', '--wait-s', '0'], t.io)).toBe(1);
    expect(t.stderr()).toContain('comfyui-render');
    expect(t.stderr()).toContain('upscale');
  });

  it('sends the key from the env var named by --api-key-env, and says what to do without it', async () => {
    await double.close();
    double = await startLeaseServerDouble({ apiKey: 'k-123' });
    const missing = controllableIO();
    expect(await main(['lease', 'acquire', '--server', double.url, '--devices', '0', '--detach'], missing.io)).toBe(1);
    expect(missing.stderr()).toContain('--api-key-env');
    const unset = controllableIO();
    expect(await main(['lease', 'acquire', '--server', double.url, '--api-key-env', 'SF_KEY', '--detach'], unset.io)).toBe(2);
    expect(unset.stderr()).toContain('SF_KEY');
    const ok = controllableIO({ SF_KEY: 'k-123' });
    expect(await main(['lease', 'acquire', '--server', double.url, '--devices', '0', '--api-key-env', 'SF_KEY', '--detach'], ok.io)).toBe(0);
    expect(double.requests.at(-1)?.headers.authorization).toBe('Bearer k-123');
    expect(ok.stdout() + ok.stderr()).not.toContain('k-123');
  });

  it('without --server takes a local lock until Ctrl-C, and refuses a second holder naming the first', async () => {
    const first = controllableIO();
    const running = main(['lease', 'acquire', '--devices', '0', '--reason', 'local eval', '--lock-dir', dir], first.io);
    await vi.waitFor(() => expect(first.stdout()).toContain('(local lock)'), SETTLE);
    const lockFile = join(dir, 'gpu-0.lock');
    expect(existsSync(lockFile)).toBe(true);
    // A second holder: the lock names our own (live) PID, so a fresh acquire must be refused.
    const second = controllableIO();
    expect(await main(['lease', 'acquire', '--devices', '0', '--lock-dir', dir], second.io)).toBe(1);
    expect(second.stderr()).toContain(`pid ${process.pid}`);
    expect(second.stderr()).toContain('"local eval"');
    const status = controllableIO();
    expect(await main(['lease', 'status', '--lock-dir', dir], status.io)).toBe(0);
    expect(status.stdout()).toMatch(/GPU 0 {2}held {2}pid \d+/);
    first.interrupt();
    expect(await running).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('uses the cache directory from the environment for local locks', async () => {
    const t = controllableIO({ XDG_CACHE_HOME: join(dir, 'xdg') });
    const running = main(['lease', 'acquire'], t.io);
    await vi.waitFor(() => expect(existsSync(join(dir, 'xdg', 'crucibleforge', 'locks', 'gpu-0.lock'))).toBe(true), SETTLE);
    t.interrupt();
    expect(await running).toBe(0);
  });
});

describe('crucibleforge lease status', () => {
  it('lists leases and loaded models from the server', async () => {
    double.state.addLease({ devices: [0], holder: 'openclaw-agent', reason: 'chat', model_ids: ['a/b'] });
    double.state.setResident({ model_id: 'a/b', devices: [0], active_requests: 1 });
    const t = controllableIO();
    expect(await main(['lease', 'status', '--server', double.url], t.io)).toBe(0);
    expect(t.stdout()).toMatch(/GPU 0 {2}openclaw-agent {2}active {2}expires in 60 min models a\/b {2}"chat"/);
    expect(t.stdout()).toContain('a/b  ready  GPU 0  active 1');
    const j = controllableIO();
    expect(await main(['lease', 'status', '--server', double.url, '--json'], j.io)).toBe(0);
    expect(JSON.parse(j.stdout())).toMatchObject({ leases: [{ holder: 'openclaw-agent' }], loaded: [{ model_id: 'a/b' }] });
  });

  it('lists local locks, marking a dead holder stale', async () => {
    await writeFile(join(dir, 'gpu-3.lock'), JSON.stringify({ lease_id: 'x', pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), holder: 'old', reason: '', devices: [3], started_at: 'then', started_at_ms: 0 }));
    const t = controllableIO();
    expect(await main(['lease', 'status', '--lock-dir', dir], t.io)).toBe(0);
    expect(t.stdout()).toContain('GPU 3  stale');
  });
});

describe('crucibleforge lease usage errors', () => {
  it.each([
    [['lease'], 'status, acquire or release'],
    [['lease', 'frob'], 'unknown lease action'],
    [['lease', 'release', '--server', 'http://x'], '--id'],
    [['lease', 'release', '--id', 'abc'], '--server'],
    [['lease', 'acquire', '--detach'], '--detach needs --server'],
    [['lease', 'acquire', '--devices', '0,x'], '"x"'],
    [['lease', 'acquire', '--server', 'ftp://x', '--devices', '0'], 'http'],
    [['lease', 'acquire', '--server', 'http://127.0.0.1:9', '--priority', '5'], '--priority'],
  ])('%j → exit 2 naming the problem', async (args, text) => {
    const t = controllableIO();
    expect(await main(args, t.io)).toBe(2);
    expect(t.stderr()).toContain(text);
  });
});
