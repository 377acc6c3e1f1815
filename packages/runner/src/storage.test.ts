import { appendFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertRunId, listRuns, loadRun, missingKeys, newRunId, RunLog, writeManifest } from './storage';
import type { RunManifestFile, RunRow } from './storage-types';

function manifest(runId: string): RunManifestFile {
  return {
    schema_version: 1,
    run_id: runId,
    created_at: '2025-01-01T00:00:00.000Z',
    tool_version: '0.1.0',
    profile: 'p',
    models: [{ label: 'm', model_id: 'm-id', provider: 'local' }],
    cases: [
      { id: 'C1', revision: 'r1', seed: null },
      { id: 'C2', revision: 'r1', seed: 7 },
    ],
    seed: 7,
    judge: null,
    runner: { fingerprint: 'fp', categories: null, budget_usd: null, cases_dir: '/c', config_file: null, models: [] },
  };
}

function row(caseId: string, seed: number | null, status: RunRow['grade']['status'], attempt: string, extra: Partial<RunRow> = {}): RunRow {
  return {
    schema_version: 1,
    run_id: 'r',
    model: 'm',
    model_id: 'm-id',
    provider: 'local',
    case_id: caseId,
    case_revision: 'r1',
    category: 'math',
    difficulty: 'easy',
    seed,
    messages: [],
    content: '',
    reasoning: '',
    tool_calls: [],
    finish_reason: 'stop',
    timings: { ttft_s: null, ttft_content_s: null, e2e_s: null, decode_tps: null },
    usage: { prompt_tokens: 1, completion_tokens: 1, reasoning_tokens: null, cached_tokens: null, cost_usd: null },
    cost_usd: null,
    grade: { status, reason: status },
    started_at: '',
    finished_at: '',
    attempt_id: attempt,
    max_tokens_sent: 10,
    ...extra,
  };
}

describe('run storage', () => {
  it('run ids are sortable, safe folder names', () => {
    expect(newRunId(new Date('2025-03-04T05:06:07Z'), () => 0.5)).toBe('20250304-050607-8000');
    expect(() => assertRunId('../etc')).toThrow(/invalid run id/);
    expect(() => assertRunId('..')).toThrow();
  });

  it('folds rows by key (last wins), applies verdicts only to the attempt judged, and heals a torn line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-store-'));
    await writeManifest(dir, manifest('run-1'));
    const log = await RunLog.open(dir, 'run-1');
    await log.append({ kind: 'session', event: 'start', at: 't', resumed: false, tool_version: 'x' });
    await log.append({ kind: 'row', row: row('C1', null, 'error', 'a1', { error_class: 'server-error' }) });
    await log.append({ kind: 'row', row: row('C2', 7, 'pending', 'a2') });
    await log.close();
    let run = await loadRun(dir, 'run-1');
    expect(missingKeys(run.manifest, run.rows)).toEqual([{ model: 'm', case_id: 'C1', seed: null }]);
    // a kill -9 mid-write leaves half a line
    await appendFile(join(dir, 'run-1', 'rows.jsonl'), '{"kind":"row","row":{"case_');
    const again = await RunLog.open(dir, 'run-1');
    await again.append({ kind: 'row', row: row('C1', null, 'pass', 'a3') });
    const verdict = { verdict: 'correct' as const, note: 'ok', identity: { model: 'j', endpoint: 'e', prompt_version: 'v' }, samples: 1, agreement: 1, judged_at: 't' };
    await again.append({ kind: 'judge', key: { model: 'm', case_id: 'C2', seed: 7 }, attempt_id: 'a2', judge: verdict, grade: { status: 'pass', reason: 'judge: ok' } });
    await again.append({ kind: 'judge', key: { model: 'm', case_id: 'C1', seed: null }, attempt_id: 'a1', judge: verdict, grade: { status: 'fail', reason: 'stale' } });
    await again.close();
    run = await loadRun(dir, 'run-1');
    expect(run.torn).toBe(1);
    expect(run.rows.map((r) => [r.case_id, r.grade.status, r.attempt_id])).toEqual([
      ['C2', 'pass', 'a2'],
      ['C1', 'pass', 'a3'],
    ]);
    expect(run.rows[0]?.judge?.verdict).toBe('correct');
    expect(missingKeys(run.manifest, run.rows)).toEqual([]);
    const text = await readFile(join(dir, 'run-1', 'rows.jsonl'), 'utf8');
    expect(text.split('\n').filter(Boolean)).toHaveLength(7);
    const runs = await listRuns(dir);
    expect(runs).toEqual([
      expect.objectContaining({ run_id: 'run-1', total: 2, done: 2, passes: 2, complete: true, pending_judge: 0 }),
    ]);
    await expect(loadRun(dir, 'nope')).rejects.toThrow(/no run "nope"/);
  });
});
