/**
 * One run at a time per GPU, across processes: GUI runs take the same local GPU lock as `crucibleforge run`
 * (the runner's lease path). Two GUI servers share a lock directory the way a GUI and a CLI share
 * ~/.cache/crucibleforge/locks; the second run on the same GPU is refused with a message naming the holder.
 */
import { readdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGuiServer, type GuiServer } from './index';
import { rawRequest, readEvents, tempDir, writeCasesDir } from './test-support';

describe('GPU lease shared by GUI and CLI runs', { timeout: 30_000 }, () => {
  let sim: SimEndpoint;
  let first: GuiServer;
  let second: GuiServer;
  const results = tempDir('cf-gui-lease-results-');
  const cases = tempDir('cf-gui-lease-cases-');
  const locks = tempDir('cf-gui-lease-locks-');

  const post = (gui: GuiServer, path: string, body: unknown) =>
    rawRequest(gui.url, path, { method: 'POST', headers: { 'content-type': 'application/json', origin: gui.url.replace(/\/$/, '') }, body: JSON.stringify(body) });

  beforeAll(async () => {
    writeCasesDir(cases.dir);
    sim = await startSimEndpoint({
      models: [
        // Slow enough that the first run is still holding GPU 0 while the second one asks for it.
        { id: 'sim-slow', first_token_base_ms: 20_000, answer: { content: 'Answer: 1' } },
        { id: 'sim-fast', first_token_base_ms: 1, decode_tps: 5000, answer: { content: 'Answer: 42' } },
      ],
    });
    const lease = { devices: [0], wait_s: 0.3 };
    const config = {
      providers: { box: { kind: 'llamacpp' as const, base_url: sim.url } },
      models: {
        big: { provider: 'box', id: 'sim-slow', lease, reasoning: 'off' as const, reasoning_factor: 4, enabled: true, recovery: true, temperature: 0, verify_model: 'off' as const },
        small: { provider: 'box', id: 'sim-fast', lease, reasoning: 'off' as const, reasoning_factor: 4, enabled: true, recovery: true, temperature: 0 },
      },
    };
    const common = { port: 0, resultsDir: results.dir, casesDir: cases.dir, config, leaseCacheDir: locks.dir };
    first = await startGuiServer(common);
    second = await startGuiServer(common);
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await sim?.close();
    [results, cases, locks].forEach((d) => d.remove());
  });

  it('refuses the second run on a busy GPU with the holder named, allows one run per GUI, and frees the GPU on stop', async () => {
    const a = await post(first, '/api/runs', { profile: 'mathonly', models: ['big'] });
    expect(a.status).toBe(202);
    const runA: string = JSON.parse(a.body).run.run_id;
    // Wait until run A holds GPU 0 (its lock file exists).
    for (let i = 0; i < 200 && readdirSync(locks.dir).filter((f) => f.endsWith('.lock')).length === 0; i++) await delay(25);
    expect(readdirSync(locks.dir)).toContain('gpu-0.lock');

    // The same GUI: one run at a time.
    const again = await post(first, '/api/runs', { profile: 'quick', models: ['small'] });
    expect(again.status).toBe(409);
    expect(JSON.parse(again.body).error).toContain(`run ${runA} is still going`);

    // Another process on the same GPU (here a second GUI; a CLI run takes the same lock): refused, holder named.
    const b = await post(second, '/api/runs', { profile: 'mathonly', models: ['small'] });
    expect(b.status).toBe(202);
    const runB: string = JSON.parse(b.body).run.run_id;
    const eventsB = await readEvents(`${second.url}api/runs/${runB}/events`);
    const stopped = eventsB.find((e) => e.event === 'model')?.data;
    const ended = eventsB.find((e) => e.event === 'end')?.data as { summary: { complete: boolean; done: number; models: { stopped: { reason: string; message: string } | null }[] } };
    expect(stopped).toBeDefined();
    expect(ended.summary.complete).toBe(false);
    expect(ended.summary.done).toBe(0);
    expect(ended.summary.models[0]!.stopped?.reason).toBe('lease-failed');
    expect(ended.summary.models[0]!.stopped?.message).toMatch(/GPU 0 is locked by pid \d+/);
    const logB = eventsB.filter((e) => e.event === 'log').map((e) => (e.data as { text: string }).text).join('\n');
    expect(logB).toContain('small: STOPPED (lease-failed)');

    // Stop run A from its GUI; the lock goes away and the other GUI can now use GPU 0.
    const stop = await post(first, `/api/runs/${runA}/stop`, {});
    expect(stop.status).toBe(202);
    const eventsA = await readEvents(`${first.url}api/runs/${runA}/events`);
    const endA = eventsA.find((e) => e.event === 'end')?.data as { summary: { complete: boolean } };
    expect(endA.summary.complete).toBe(false);
    expect(eventsA.some((e) => e.event === 'log' && (e.data as { text: string }).text.startsWith('stop requested'))).toBe(true);
    expect(readdirSync(locks.dir).filter((f) => f.endsWith('.lock'))).toEqual([]);
    const state = JSON.parse((await rawRequest(first.url, '/api/state')).body);
    expect(state.active).toBeNull();

    const c = await post(second, '/api/runs', { profile: 'mathonly', models: ['small'] });
    expect(c.status).toBe(202);
    const eventsC = await readEvents(`${second.url}api/runs/${JSON.parse(c.body).run.run_id}/events`);
    const endC = eventsC.find((e) => e.event === 'end')?.data as { summary: { complete: boolean; passes: number } };
    expect(endC.summary).toMatchObject({ complete: true, passes: 1 });
  });
});
