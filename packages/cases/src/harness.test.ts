import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { GRADER_VERSION } from './grade';
import { resultRow } from './harness';
import { caseRequest, judgeInputFor } from './planned';
import { loadCases } from './loader';
import { materializeCase, type MaterializedCase } from './materialize';
import type { LoadedCase } from './schema/case';

const REPO_CASES = fileURLToPath(new URL('../../../cases/', import.meta.url));
let cases: LoadedCase[] = [];
beforeAll(async () => {
  const loaded = await loadCases(REPO_CASES);
  if (!loaded.ok) throw new Error(`the repository's cases do not load: ${loaded.problems.length} problems`);
  cases = loaded.cases;
});
const concrete = (id: string): Promise<MaterializedCase> => materializeCase(cases.find((c) => c.def.id === id)!.def, null);

describe('judgeInputFor', () => {
  it("gives a judged case's question (system and turns), reference, key facts and grading focus", async () => {
    const c = await concrete('prose-allotment-vote-correction');
    const input = judgeInputFor(c)!;
    expect(input.question).toBe([c.system ?? '', ...c.turns].filter(Boolean).join('\n\n'));
    expect(input.question).toContain('Kessby Allotment Society');
    expect(input.reference.length).toBeGreaterThan(20);
    expect(input.facts).toEqual(c.reference.facts);
    expect(input.focus).toBe(c.grader.type === 'judge' ? c.grader.focus : 'not judged');
    // the request a run sends and keeps carries exactly this input
    expect(caseRequest(c).judge_input).toEqual(input);
  });

  it('is null for every case another grader decides, and never puts undefined keys in', async () => {
    const coding = cases.find((c) => c.def.category === 'coding' && !c.seeded)!;
    expect(judgeInputFor(await materializeCase(coding.def, null))).toBeNull();
    const judged = cases.filter((c) => c.def.grader.type === 'judge');
    expect(judged.length).toBeGreaterThan(5);
    for (const c of judged.slice(0, 10)) {
      const input = judgeInputFor(await materializeCase(c.def, null))!;
      expect(Object.values(input).every((v) => v !== undefined)).toBe(true);
    }
  });
});

describe('resultRow', () => {
  it('names the case, keeps what was sent and replied, the timings and the grade', async () => {
    const c = await concrete('prose-allotment-vote-correction');
    const row = resultRow({
      run_id: 'r1',
      model: 'my-model',
      provider: 'local',
      case: c,
      messages: [{ role: 'user', content: c.turns[0]! }],
      reply: { content: 'The motion failed.', reasoning: 'think', tool_calls: [], finish_reason: 'stop', usage: { prompt_tokens: 10, completion_tokens: 5, reasoning_tokens: null, cached_tokens: null, cost_usd: 0.01 } },
      timings: { ttft_s: 0.5, ttft_content_s: 0.7, e2e_s: 2, decode_tps: 40 },
      grade: { status: 'pending', reason: 'waits for the judge' },
      started_at: new Date('2030-01-01T00:00:00Z'),
      finished_at: '2030-01-01T00:00:02.000Z',
    });
    expect(row).toEqual({
      schema_version: 1,
      run_id: 'r1',
      model: 'my-model',
      model_id: 'my-model',
      provider: 'local',
      case_id: c.id,
      case_revision: c.revision,
      category: 'prose',
      difficulty: c.difficulty,
      title: c.title,
      seed: null,
      messages: [{ role: 'user', content: c.turns[0] }],
      content: 'The motion failed.',
      reasoning: 'think',
      tool_calls: [],
      finish_reason: 'stop',
      timings: { ttft_s: 0.5, ttft_content_s: 0.7, e2e_s: 2, decode_tps: 40 },
      usage: { prompt_tokens: 10, completion_tokens: 5, reasoning_tokens: null, cached_tokens: null, cost_usd: 0.01 },
      cost_usd: 0.01,
      grade: { status: 'pending', reason: 'waits for the judge' },
      grader_version: GRADER_VERSION,
      started_at: '2030-01-01T00:00:00.000Z',
      finished_at: '2030-01-01T00:00:02.000Z',
    });
  });

  it('defaults what was not given: an empty reply, unknown timings and usage, the seed of the variant', async () => {
    const seeded = cases.find((c) => c.seeded && !c.def.derive)!;
    const c = await materializeCase(seeded.def, 7);
    const row = resultRow({ run_id: 'r', model: 'm', model_id: 'org/m', provider: 'p', case: c, grade: { status: 'error', reason: 'x' }, error_class: 'timeout', started_at: '2030-01-01T00:00:00.000Z' });
    expect(row.seed).toBe(c.seed);
    expect(row.seed).not.toBeNull();
    expect(row).toMatchObject({ model_id: 'org/m', content: '', reasoning: '', tool_calls: [], finish_reason: null, cost_usd: null, error_class: 'timeout' });
    expect(row.timings).toEqual({ ttft_s: null, ttft_content_s: null, e2e_s: null, decode_tps: null });
    expect(row.usage.prompt_tokens).toBeNull();
    expect(row.finished_at).toBe(row.started_at);
    expect(row.grader_version).toBe(GRADER_VERSION);
    expect('grader_version' in resultRow({ run_id: 'r', model: 'm', provider: 'p', case: c, grade: row.grade, grader_version: null, started_at: row.started_at })).toBe(false);
    expect(resultRow({ run_id: 'r', model: 'm', provider: 'p', case: c, seed: null, grade: { status: 'skipped', reason: 'x' }, started_at: row.started_at }).seed).toBeNull();
    expect('attempts' in row || 'stream' in row).toBe(false);
  });
  it("carries the retry loop's attempts and a damaged stream's tally when given", async () => {
    const c = await materializeCase(cases[0]!.def, 1);
    const attempts = { requests: 2, retries: 1, wait_s: 0.5, faults: [] };
    const stream = { dropped_events: 3, decode_errors: 0, unexpected_end: true };
    const row = resultRow({ run_id: 'r', model: 'm', provider: 'p', case: c, grade: { status: 'fail', reason: 'x' }, attempts, stream, started_at: '2030-01-01T00:00:00.000Z' });
    expect(row).toMatchObject({ attempts, stream });
  });
});
