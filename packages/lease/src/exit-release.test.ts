import { EventEmitter } from 'node:events';
import { acquireLease } from './acquire';
import { createLeaseRegistry } from './registry';
import { createManualTime, startLeaseServerDouble, type LeaseServerDouble } from './testing/index';
import { afterEach, describe, expect, it } from 'vitest';
import { installExitRelease } from './exit-release';

let double: LeaseServerDouble | undefined;
afterEach(async () => {
  await double?.close();
  double = undefined;
});

async function setup() {
  const time = createManualTime();
  double = await startLeaseServerDouble({ now: time.now, gpus: [0, 1] });
  const registry = createLeaseRegistry();
  const lease = await acquireLease({ server: double.url, devices: [0, 1], now: time.now, timers: time.timers, registry });
  const proc = Object.assign(new EventEmitter(), { exits: [] as number[] });
  let resolveExit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  const fake = {
    on: (event: string, listener: (value?: unknown) => void) => proc.on(event, listener),
    exit: (code: number) => {
      proc.exits.push(code);
      resolveExit(code);
    },
  };
  let stopping = false;
  const stderr: string[] = [];
  installExitRelease({ process: fake, registry, write: (t) => stderr.push(t), alreadyStopping: () => stopping });
  return { double, lease, proc, exited, stderr, stop: () => (stopping = true) };
}

describe('exit paths that skip finally still give the GPU back', () => {
  it('an uncaught error releases every held lease, then exits 1 naming the error', async () => {
    const { double, lease, proc, exited, stderr } = await setup();
    proc.emit('uncaughtException', new Error('boom in a timer'));
    expect(await exited).toBe(1);
    expect(double.state.released).toEqual([lease.id]);
    expect(double.state.leases.size).toBe(0);
    expect(stderr.join('')).toContain('unexpected error: boom in a timer');
  });

  it('an unhandled rejection does the same', async () => {
    const { double, lease, proc, exited } = await setup();
    proc.emit('unhandledRejection', new Error('lost promise'));
    expect(await exited).toBe(1);
    expect(double.state.released).toEqual([lease.id]);
  });

  it('the first Ctrl-C leaves the release to the work it stops; a second one releases and exits 130', async () => {
    const { double, lease, proc, exited, stop } = await setup();
    proc.emit('SIGINT');
    expect(proc.exits).toEqual([]);
    stop(); // what nodeIO's own listener does on the first signal
    proc.emit('SIGINT');
    expect(await exited).toBe(130);
    expect(double.state.released).toEqual([lease.id]);
  });

  it('a lease server that does not answer the release is named, and the exit still happens', async () => {
    const { double, lease, proc, exited, stderr } = await setup();
    double.script({ method: 'DELETE', status: 500, body: { error: { message: 'db locked', code: 'internal' } } });
    proc.emit('SIGTERM');
    expect(proc.exits).toEqual([]);
    proc.emit('uncaughtException', new Error('x'));
    expect(await exited).toBe(1);
    expect(stderr.join('')).toContain(`could not release lease ${lease.id}`);
  });
});
