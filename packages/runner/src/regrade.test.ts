import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MaterializedCase } from '@crucibleforge/cases';
import type { Sandbox } from '@crucibleforge/sandbox';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from './api';
import { createCasesDriver } from './cases-driver';
import { parseConfig } from './config';
import type { CaseDriver } from './driver';
import { regradeRun } from './regrade';
import { loadRun } from './storage';
import { fakeSleep, FIXTURE_CASES_DIR, steppingDate } from '@crucibleforge/testkit';

const casesDir = FIXTURE_CASES_DIR;
const noSandbox = () => Promise.reject<Sandbox>(new Error('no sandbox needed'));

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startSimEndpoint({
    models: [
      {
        id: 'spacey',
        first_token_base_ms: 1,
        decode_tps: 50_000,
        // a correct reply in a style the old graders misread: the self-corrected final answer comes last
        answer: (v) => {
          const q = String(v.messages.at(-1)?.content ?? '');
          if (q.includes('40 + 2')) return { content: 'Answer: 41\n\nWait, 40 + 2 is one more. On reflection, **Answer: 42** (forty-two)' };
          if (q.includes('2 + 3')) return { content: 'Answer: 6' };
          return { content: 'Paris.' };
        },
      },
    ],
  });
});
afterAll(async () => sim?.close());

/** The real cases driver, but grading as an older grader did: any reply with two labelled answers fails. */
function olderGraders(): CaseDriver<MaterializedCase> {
  const real = createCasesDriver({ casesDir });
  return {
    ...real,
    graderVersion: 'graders/1',
    async grade(m, final, world) {
      if ((final.content.match(/Answer:/g) ?? []).length > 1) return { status: 'fail', reason: 'two different final answers: 41 and 42' };
      return real.grade(m, final, world);
    },
  };
}

/** A finished run of the `spacey` sim model in a fresh results dir. */
async function storedRun(options: { profile: string; driver: CaseDriver; categories?: ('math' | 'prose')[] }): Promise<{ dir: string; runId: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'cf-regrade-'));
  const config = parseConfig(`providers:\n  p: { kind: ollama, base_url: ${sim.url} }\nmodels:\n  spacey: { provider: p, id: spacey, context_length: 8192 }\n`);
  const run = await createRun({
    config,
    env: {},
    resultsDir: dir,
    toolVersion: 't',
    world: { sleep: fakeSleep().sleep, now: steppingDate() },
    models: ['spacey'],
    casesDir,
    ...options,
  });
  await run.done;
  return { dir, runId: run.runId };
}

describe('regrade', () => {
  it('re-grades stored replies with the current graders, no model calls, records beside the old ones', async () => {
    const { dir, runId } = await storedRun({ profile: 'quick', driver: olderGraders() });
    const run = { runId };
    const before = await loadRun(dir, run.runId);
    expect(before.rows.map((r) => [r.case_id, r.grade.status, r.grader_version])).toEqual([
      ['math-add-large', 'fail', 'graders/1'],
      ['math-add-small', 'fail', 'graders/1'],
    ]);
    const requests = sim.requests.length;

    const dry = await regradeRun({ resultsDir: dir, runId: run.runId, sandbox: noSandbox, driver: createCasesDriver({ casesDir }), dryRun: true });
    expect(dry).toMatchObject({ regraded: 2, dry_run: true, changed: [{ case_id: 'math-add-large', from: { status: 'fail', grader_version: 'graders/1' }, to: { status: 'pass' } }] });
    expect((await loadRun(dir, run.runId)).rows[0]!.grade.status).toBe('fail');

    const summary = await regradeRun({ resultsDir: dir, runId: run.runId, sandbox: noSandbox, driver: createCasesDriver({ casesDir }), now: () => new Date('2025-02-01T00:00:00Z') });
    expect(summary.grader_version).toMatch(/^graders\/\d+$/);
    expect(summary.changed.map((c) => c.case_id)).toEqual(['math-add-large']);
    expect(sim.requests.length).toBe(requests);
    const after = await loadRun(dir, run.runId);
    expect(after.rows.find((r) => r.case_id === 'math-add-large')).toMatchObject({
      grade: { status: 'pass', reason: 'answer 42' },
      grader_version: summary.grader_version,
      regraded_from: { status: 'fail', reason: 'two different final answers: 41 and 42', grader_version: 'graders/1', at: '2025-02-01T00:00:00.000Z' },
    });
    expect(after.rows.find((r) => r.case_id === 'math-add-small')).toMatchObject({ grade: { status: 'fail', reason: 'expected 5, got 6' }, grader_version: summary.grader_version });
    // the old records stay in the log; the regrade records come after them
    const log = (await readFile(join(dir, run.runId, 'rows.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { kind: string });
    expect(log.filter((r) => r.kind === 'row')).toHaveLength(2);
    expect(log.filter((r) => r.kind === 'regrade')).toHaveLength(2);
  });

  it('keeps judged rows and rows whose question changed', async () => {
    const { dir, runId } = await storedRun({ profile: 'test', categories: ['math', 'prose'], driver: createCasesDriver({ casesDir }) });
    const run = { runId };
    const real = createCasesDriver({ casesDir });
    const moved: CaseDriver<MaterializedCase> = { ...real, plan: async (s) => (await real.plan(s)).map((p) => (p.id === 'math-add-small' ? { ...p, revision: 'changed0000' } : p)) };
    const summary = await regradeRun({ resultsDir: dir, runId: run.runId, sandbox: noSandbox, driver: moved });
    expect(summary.regraded).toBe(1);
    expect(summary.skipped.map((s) => [s.case_id, s.reason.replace(/\(revision .*\)/, '(revision …)')]).sort()).toEqual([
      ['math-add-small', 'the question changed (revision …)'],
      ['prose-capital-france', 'judged (the judge decides it)'],
    ]);
  });
});
