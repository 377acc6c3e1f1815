/**
 * End to end against a fault-injecting endpoint: every provider fault gives a classified row or a visible
 * stop, nothing is graded as the model's failure because of the provider, and every report form (md, json,
 * html, terminal) lists every model with its stop reason, the cases it did not run and its retries.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { ReportData } from '@crucibleforge/report';
import { createRun, loadRun, parseConfig } from '@crucibleforge/runner';
import { startSimEndpoint, type SimEndpoint, type SimFault } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from './runner-report';
import { FIXTURE_CASES_DIR as FIXTURE_CASES, fixtureWorkspace, strongAnswer } from '@crucibleforge/testkit';

const fast = { first_token_base_ms: 1, decode_tps: 2_000, prefill_tps: 10_000_000, answer: strongAnswer };
/** Faults by the request's position among the requests to that model; 0 is the preflight. */
const byIndex = (faults: Record<number, SimFault>) => (v: { model_index?: number }) => faults[v.model_index ?? 0];

let sim: SimEndpoint;
let downUrl: string;
beforeAll(async () => {
  sim = await startSimEndpoint({
    models: [
      // a corrupted chunk, then bytes that are not UTF-8: each retried, each case then graded on its whole reply
      { id: 'm-corrupt', ...fast, faults: byIndex({ 1: { kind: 'corrupted_chunk', after_tokens: 2 }, 3: { kind: 'bad_utf8', after_tokens: 1 } }) },
      // every case reply ends early: bad-stream rows, never graded
      { id: 'm-end', ...fast, faults: (v) => ((v.model_index ?? 0) > 0 ? { kind: 'unexpected_end', after_tokens: 2 } : undefined) },
      // a reset before the response (retried), then resets mid-stream (rows)
      {
        id: 'm-reset',
        ...fast,
        faults: (v) => (v.model_index === 1 ? { kind: 'reset_before_response' } : (v.model_index ?? 0) > 1 ? { kind: 'reset', after_tokens: 3 } : undefined),
      },
      // the stream goes silent after two tokens (the 0.3 s gap limit from models.yaml)
      { id: 'm-gap', ...fast, faults: (v) => ((v.model_index ?? 0) > 0 ? { kind: 'stall', after_tokens: 2, stall_ms: 20_000 } : undefined) },
      // 429 with Retry-After in seconds, then as an HTTP date; a 500: all retried, the cases then pass
      {
        id: 'm-busy',
        ...fast,
        faults: byIndex({
          1: { kind: 'status', status: 429, retry_after_s: 2 },
          2: { kind: 'status', status: 429, retry_after_s: 3, retry_after_date: true },
          4: { kind: 'status', status: 500 },
        }),
      },
      // connected, then silence at the preflight
      { id: 'm-stall', ...fast, faults: () => ({ kind: 'stall', after_tokens: 0, stall_ms: 20_000 }) },
      // another model answers
      { id: 'm-wrong', ...fast, respond_as: 'someone-else' },
    ],
  });
  // a port nothing listens on: the endpoint is down
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  downUrl = `http://127.0.0.1:${port}/v1`;
});
afterAll(async () => sim?.close());

const MODELS = ['m-corrupt', 'm-end', 'm-reset', 'm-gap', 'm-busy', 'm-stall', 'm-wrong', 'm-down'];

describe('a run against a fault server', () => {
  it('classifies every fault, grades none of them as the model, and reports every model with its stop', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const config = parseConfig(`providers:
  faulty: { kind: generic, base_url: ${sim.url}, concurrency: 1, timeouts: { first_token_s: 0.3, gap_s: 0.3 } }
  gone: { kind: generic, base_url: ${downUrl} }
models:
${MODELS.map((m) => `  ${m}: { provider: ${m === 'm-down' ? 'gone' : 'faulty'}, id: ${m}, context_length: 32768, reasoning: off, verify_model: strict }`).join('\n')}
`);
    const waits: number[] = [];
    const run = await createRun({
      config,
      env: {},
      models: MODELS,
      profile: 'test',
      categories: ['math'],
      resultsDir: ws.results,
      casesDir: FIXTURE_CASES,
      toolVersion: 't',
      world: { sleep: async (ms) => void waits.push(ms), retry: { attempts: 3 } },
    });
    const summary = await run.done;
    const { rows, stopped } = await loadRun(ws.results, summary.run_id);

    // nothing the provider did is a fail: every answered case passed, every fault is an ungraded error
    expect(rows.filter((r) => r.grade.status === 'fail')).toEqual([]);
    for (const r of rows.filter((r) => r.grade.status === 'error')) expect(r.error_class).toBeDefined();

    // damaged streams: retried, the counts kept on the row
    const corrupt = rows.filter((r) => r.model === 'm-corrupt');
    for (const r of corrupt) expect(r).toMatchObject({ grade: { status: 'pass' }, attempts: { requests: 2, retries: 1, faults: [{ class: 'bad-stream' }] } });
    expect(corrupt.map((r) => [r.stream?.dropped_events, r.stream?.decode_errors]).sort()).toEqual([
      [0, 1],
      [1, 0],
    ]);
    for (const r of rows.filter((r) => r.model === 'm-end')) {
      expect(r).toMatchObject({ grade: { status: 'error' }, error_class: 'bad-stream', attempts: { requests: 3 }, stream: { unexpected_end: true } });
    }

    // a reset before the response is a reset (not "unreachable"), retried; one mid-stream ends the case
    const resets = rows.filter((r) => r.model === 'm-reset');
    expect(resets.map((r) => [r.grade.status, r.error_class])).toEqual([
      ['error', 'reset'],
      ['error', 'reset'],
    ]);
    expect(resets.flatMap((r) => r.attempts?.faults ?? [])[0]).toMatchObject({ class: 'reset', message: expect.stringContaining('reset before a response') });
    for (const r of rows.filter((r) => r.model === 'm-gap')) expect(r).toMatchObject({ grade: { status: 'error' }, error_class: 'stall', error_message: expect.stringContaining('no token for 300 ms') });

    // 429 (seconds and HTTP date) and 500: retried after the server's wait, then passed
    const busy = rows.filter((r) => r.model === 'm-busy');
    expect(busy.every((r) => r.grade.status === 'pass')).toBe(true);
    const faults = busy.flatMap((r) => r.attempts?.faults ?? []);
    expect(faults.map((f) => f.class).sort()).toEqual(['rate-limited', 'rate-limited', 'server-error']);
    expect(faults.find((f) => f.class === 'rate-limited')?.wait_s).toBe(2);
    expect(waits).toContain(2000); // Retry-After: 2
    expect(waits.some((w) => w >= 1000 && w <= 3000 && w !== 2000)).toBe(true); // Retry-After as an HTTP date, ~3 s from when it was sent

    // visible stops, with why
    const stop = (model: string) => stopped.find((s) => s.model === model);
    expect(stop('m-stall')).toMatchObject({ reason: 'stalled', message: expect.stringContaining('stall') });
    expect(stop('m-wrong')).toMatchObject({ reason: 'wrong-model', message: expect.stringContaining('"someone-else" answered') });
    expect(stop('m-down')).toMatchObject({ reason: 'endpoint-down', message: expect.stringContaining('unreachable') });

    // every report form lists every model with its stop reason and the cases it did not run
    const out = join(ws.dir, 'report');
    const written = await writeReport({ resultsDir: ws.results, runIds: [summary.run_id], formats: ['md', 'json', 'html'], outDir: out });
    const json = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as ReportData;
    expect(json.models.map((m) => m.model).sort()).toEqual([...MODELS].sort());
    const status = Object.fromEntries(json.models.map((m) => [m.model, m.status]));
    expect(status['m-stall']).toMatchObject({ stop: { reason: 'stalled' }, planned: 2, not_run: 2 });
    expect(status['m-wrong']).toMatchObject({ stop: { reason: 'wrong-model' }, not_run: 2 });
    expect(status['m-down']).toMatchObject({ stop: { reason: 'endpoint-down' }, not_run: 2 });
    expect(status['m-end']).toMatchObject({ stop: null, not_run: 2, attempts: { failed: { 'bad-stream': 2 } } });
    expect(status['m-busy']).toMatchObject({ stop: null, not_run: 0, attempts: { retries: 3, faults: { 'rate-limited': 2, 'server-error': 1 } } });
    const md = await readFile(join(out, 'report.md'), 'utf8');
    const html = await readFile(join(out, 'report.html'), 'utf8');
    for (const text of [md, html, written.table]) {
      for (const model of MODELS) expect(text).toContain(model);
      for (const reason of ['stalled', 'wrong-model', 'endpoint-down']) expect(text).toContain(reason);
    }
    expect(written.table).toMatch(/m-wrong: stopped \(wrong-model\): asked for "m-wrong" but "someone-else" answered — ran 0 of 2 cases, 2 not run/);
    expect(written.table).toMatch(/m-busy: complete — ran 2 of 2 cases; 3 retries, waited [\d.]+ s; faults met: 2 rate-limited, 1 server-error/);
    expect(written.table).toMatch(/m-corrupt: complete — ran 2 of 2 cases; 2 retries, waited [\d.]+ s; faults met: 2 bad-stream; 1 stream event\(s\) dropped/);
  });
});
