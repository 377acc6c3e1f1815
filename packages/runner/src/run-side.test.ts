import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunSide } from './run-side';
import { writeRunSpeed } from './speed-store';
import { writeManifest } from './storage';
import type { RunManifestFile } from './storage-types';
import { speedReportOf } from '@crucibleforge/testkit';

function manifest(runId: string, labels: string[]): RunManifestFile {
  return {
    schema_version: 1,
    run_id: runId,
    created_at: '2026-05-01T10:00:00.000Z',
    tool_version: '0.1.0',
    profile: 'quick',
    models: labels.map((label) => ({ label, model_id: `${label}-id`, provider: 'local' })),
    cases: [],
    seed: 3,
    judge: null,
    runner: { fingerprint: 'f', categories: null, budget_usd: null, cases_dir: 'cases', config_file: null, models: [] },
  };
}

describe('loadRunSide', () => {
  it('reads one model of a run with its speed entry and the run seed, and names what is missing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-side-'));
    await writeManifest(dir, manifest('run-2', ['a', 'b']));
    await writeManifest(dir, manifest('run-1', ['solo']));
    await writeRunSpeed(dir, 'run-2', 'b', speedReportOf({ model: 'b', ttft_s: 0.1, decode_tps: 50, prefill_tps: 500 }));
    expect(await loadRunSide(dir, 'run-2', 'b')).toEqual({ run_id: 'run-2', model: 'b', rows: [], speed: { model: 'b', ttft_s: 0.1, decode_tps: 50, prefill_tps: 500 }, seed: 3 });
    expect(await loadRunSide(dir, 'run-2', 'a')).toMatchObject({ model: 'a', speed: null });
    expect(await loadRunSide(dir, 'run-1', null)).toMatchObject({ model: 'solo', speed: null });
    await expect(loadRunSide(dir, 'run-2', null)).rejects.toMatchObject({ code: 'RUNNER_UNKNOWN_MODEL', message: 'run run-2 has 2 models (a, b); name one as run-2:<model>' });
    await expect(loadRunSide(dir, 'run-2', 'c')).rejects.toMatchObject({ code: 'RUNNER_UNKNOWN_MODEL', message: 'run run-2 has no model "c" (it has a, b)' });
    await expect(loadRunSide(dir, 'run-9', 'a')).rejects.toMatchObject({ code: 'RUNNER_UNKNOWN_RUN' });
  });
});
