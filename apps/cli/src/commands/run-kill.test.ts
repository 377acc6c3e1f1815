import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRun } from '@crucibleforge/runner';
import type { SimEndpoint, SimRequestView } from '@crucibleforge/sim-endpoint';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { FIXTURE_CASES_DIR, fixtureWorkspace, memoryIO, startFixtureSim, strongAnswer } from '@crucibleforge/testkit';

const bin = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** Right answers, slowly: about a second per case. */
function slowAnswer(v: SimRequestView) {
  const answer = strongAnswer(v);
  if (!answer.content) return answer;
  return { ...answer, content: `${'Let me think this through carefully before answering.'}\n${answer.content}` };
}

async function rowRecords(results: string): Promise<{ kind: string; row?: { case_id: string } }[]> {
  const runs = await readdir(results).catch(() => []);
  if (runs.length === 0) return [];
  const text = await readFile(join(results, runs[0]!, 'rows.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    })
    .filter((r) => r.kind === 'row');
}

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startFixtureSim([{ id: 'slow', first_token_base_ms: 5, decode_tps: 15, answer: slowAnswer }]);
});
afterAll(async () => sim?.close());

// Locally a missing build skips visibly; on CI (CI set) it fails, so the pipeline cannot pass without this test.
if (process.env['CI'] && !existsSync(bin)) it('the built CLI exists (required when CI is set)', () => expect.fail(`${bin} is missing: build first (pnpm --filter @crucibleforge/cli build)`));

describe.skipIf(!existsSync(bin))('kill -9 of a running CLI, then the same command again', () => {
  it('finishes only what is missing, with no duplicate rows', async () => {
    const ws = await fixtureWorkspace(sim.url, '  slow: { provider: local, id: slow, context_length: 32768 }\n');
    // --no-speed: a speed measurement of this slow model would take longer than the test waits for its rows
    const args = ['run', '--profile', 'test', '--models', 'slow', '--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed', '--no-speed'];
    const child = execa('node', [bin, ...args], { cwd: ws.dir, env: { PATH: process.env['PATH'] ?? '', HOME: ws.dir }, extendEnv: false, reject: false });
    let before: Awaited<ReturnType<typeof rowRecords>> = [];
    for (let i = 0; i < 400 && before.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      before = await rowRecords(ws.results);
    }
    expect(before.length).toBeGreaterThanOrEqual(2);
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');
    before = await rowRecords(ws.results);
    expect(before.length).toBeLessThan(6);

    const t = memoryIO({ cwd: ws.dir, env: { HOME: ws.dir } });
    expect(await main(args, t.io)).toBe(0);
    expect(t.stdout()).toMatch(new RegExp(`resuming run \\S+: slow — ${6 - before.length} of 6 cases to run`));
    const after = await rowRecords(ws.results);
    const ids = after.map((r) => r.row!.case_id).sort();
    expect(ids).toEqual([...new Set(ids)]);
    expect(ids).toHaveLength(6);
    const [runId] = await readdir(ws.results);
    const run = await loadRun(ws.results, runId!);
    expect(run.rows).toHaveLength(6);
    expect(run.sessions).toBe(2);
    expect(run.rows.filter((r) => r.grade.status === 'pass')).toHaveLength(4);
  }, 60_000);
});
