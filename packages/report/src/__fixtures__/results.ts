/**
 * A fixed result set for the report tests. Everything is spelled out so the expected numbers can be derived by
 * hand (see the comments next to each model).
 */
import type {
  Category,
  Difficulty,
  JudgeIdentity,
  PairwiseSummary,
  ResultRow,
  RunManifest,
  SpeedSummary,
} from '@crucibleforge/core';

export const PREFIX: Record<Category, string> = {
  coding: 'CZ',
  math: 'MZ',
  reasoning: 'RZ',
  tooluse: 'TZ',
  injection: 'IZ',
  instruct: 'NZ',
  longctx: 'LZ',
  prose: 'PZ',
  agent: 'AZ',
};

const NAMED: Record<string, string> = { CZ01: 'CZ01-prime-census', TZ06: 'TZ06-three-parallel-one-turn' };

/** Case id for category prefix + number: `CZ01-prime-census`, `MZ03`, … */
export function caseId(short: string): string {
  return NAMED[short] ?? short;
}

export const JUDGE_RIG: JudgeIdentity = { model: 'judge-122b', endpoint: 'http://rig.local:8000/v1', prompt_version: 'v3' };
export const JUDGE_HOSTED: JudgeIdentity = { model: 'gpt-judge', endpoint: 'https://api.example.com/v1', prompt_version: 'v3' };

const CATS = Object.keys(PREFIX) as Category[];
/** Six cases per category: 01–02 easy, 03–04 medium, 05–06 hard. */
export const ALL_CASES: { short: string; category: Category; difficulty: Difficulty }[] = CATS.flatMap((category) =>
  [1, 2, 3, 4, 5, 6].map((n) => ({
    short: `${PREFIX[category]}0${n}`,
    category,
    difficulty: (n <= 2 ? 'easy' : n <= 4 ? 'medium' : 'hard') as Difficulty,
  })),
);

interface RowSpec {
  model: string;
  short: string;
  status?: ResultRow['grade']['status'];
  reason?: string;
  finished?: string;
  revision?: string;
  run?: string;
  patch?: Partial<ResultRow>;
}

export function makeRow(spec: RowSpec): ResultRow {
  const c = ALL_CASES.find((x) => x.short === spec.short);
  if (!c) throw new Error(`fixture: unknown case ${spec.short}`);
  const finished = spec.finished ?? '2026-05-01T10:00:00.000Z';
  const status = spec.status ?? 'pass';
  return {
    schema_version: 1,
    run_id: spec.run ?? 'run-a',
    model: spec.model,
    model_id: `${spec.model}-id`,
    provider: 'openai-compatible',
    case_id: caseId(spec.short),
    case_revision: spec.revision ?? 'r1',
    category: c.category,
    difficulty: c.difficulty,
    title: `Case ${spec.short}`,
    seed: 7,
    messages: [
      { role: 'system', content: 'You are a careful assistant.' },
      { role: 'user', content: `Solve task ${spec.short}.` },
    ],
    content: status === 'pass' ? 'Answer: 42' : 'Answer: 41',
    reasoning: '',
    tool_calls: [],
    finish_reason: 'stop',
    timings: { ttft_s: null, ttft_content_s: null, e2e_s: null, decode_tps: null },
    usage: { prompt_tokens: 120, completion_tokens: 300, reasoning_tokens: null, cached_tokens: null, cost_usd: null },
    cost_usd: null,
    grade: { status, reason: spec.reason ?? (status === 'pass' ? 'ok' : '') },
    started_at: new Date(Date.parse(finished) - 5000).toISOString(),
    finished_at: finished,
    ...spec.patch,
  };
}

export const XSS = '</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';

function modelRows(
  model: string,
  overrides: Record<string, Omit<RowSpec, 'model' | 'short'>>,
  base: Omit<RowSpec, 'model' | 'short'> = {},
  only?: (short: string) => boolean,
): ResultRow[] {
  return ALL_CASES.filter((c) => (only ? only(c.short) : true)).map((c) =>
    makeRow({ model, short: c.short, ...base, ...overrides[c.short], patch: { ...base.patch, ...overrides[c.short]?.patch } }),
  );
}

const judged = (identity: JudgeIdentity, verdict: 'correct' | 'incorrect' | 'judge-error', note = '') => ({
  verdict,
  note,
  identity,
  samples: 3,
  agreement: verdict === 'judge-error' ? 0 : 1,
  judged_at: '2026-05-01T11:00:00.000Z',
});

/** Prose is judged; every prose row carries its judge record. */
function proseJudge(identity: JudgeIdentity): Record<string, Omit<RowSpec, 'model' | 'short'>> {
  const out: Record<string, Omit<RowSpec, 'model' | 'short'>> = {};
  for (const n of [1, 2, 3, 4, 5, 6]) out[`PZ0${n}`] = { patch: { judge: judged(identity, 'correct') } };
  return out;
}

/**
 * deepseek-pro — 54 cases. Fails CZ01 (truncated) and TZ06; PZ06 pending. graded 53, passes 51.
 * CZ02 has an older failing attempt (listed AFTER the newer pass) that must be superseded.
 * LZ03 overflowed and recovered. Cost $0.05 per row → $2.70. Speed from the speed run.
 */
const deepseek = [
  ...modelRows(
    'deepseek-pro',
    {
      ...proseJudge(JUDGE_RIG),
      CZ01: {
        status: 'fail',
        reason: 'no code in response',
        patch: {
          finish_reason: 'length',
          usage: { prompt_tokens: 900, completion_tokens: 32768, reasoning_tokens: 32768, cached_tokens: null, cost_usd: null },
          reasoning: 'Let me think about primes… '.repeat(20),
          content: '',
        },
      },
      TZ06: {
        status: 'fail',
        reason: '1 calls, expected 3',
        patch: { tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
      },
      PZ06: { status: 'pending', reason: 'awaiting judge', patch: {} },
      LZ03: { patch: { overflow: { happened: true, recovered: true, budget: 32768 } } },
      CZ02: { finished: '2026-05-02T12:00:00.000Z', run: 'run-b' },
    },
    { patch: { cost_usd: 0.05 } },
  ),
  makeRow({
    model: 'deepseek-pro',
    short: 'CZ02',
    status: 'fail',
    reason: 'AssertionError: old attempt',
    finished: '2026-05-01T09:00:00.000Z',
    patch: { cost_usd: 0.05 },
  }),
];

/**
 * qwen3-local — fails CZ01, TZ06, MZ02, PZ05 (judge), LZ04 (overflow, not recovered); skipped LZ05, LZ06;
 * AZ06 transport error; PZ06 judge error. graded 50, passes 45. No cost (local). Speed from the speed run.
 */
const qwen = modelRows('qwen3-local', {
  ...proseJudge(JUDGE_RIG),
  CZ01: { status: 'fail', reason: 'AssertionError: expected 5, got 4' },
  TZ06: { status: 'fail', reason: '2 tool calls, expected 3' },
  MZ02: { status: 'fail', reason: 'answer 30, expected 24' },
  PZ05: {
    status: 'fail',
    reason: '',
    patch: { judge: judged(JUDGE_RIG, 'incorrect', 'misses the twist in the last paragraph') },
  },
  LZ04: {
    status: 'fail',
    reason: 'empty response after context overflow',
    patch: { overflow: { happened: true, recovered: false, budget: 16384 }, content: '' },
  },
  LZ05: { status: 'skipped', reason: 'needs 26048 ctx > model 16384' },
  LZ06: { status: 'skipped', reason: 'needs 52096 ctx > model 16384' },
  AZ06: { status: 'error', reason: 'transport failure: ECONNRESET', patch: { error_class: 'transport' } },
  PZ06: { status: 'error', reason: 'judge returned no parseable verdict', patch: { judge: judged(JUDGE_RIG, 'judge-error', 'unparseable') } },
});

/**
 * llama-small (second run, run-c) — fails CZ01–CZ04, MZ01, MZ02, RZ05, RZ06, TZ05, TZ06, NZ06, IZ06 (12);
 * skipped LZ04–LZ06; MZ03 at revision r2; prose judged by the hosted judge. graded 51, passes 39.
 * No speed run: decode T/s from its rows (120/130 alternating → median 125), TTFT 0.2 s.
 */
const llamaFails = ['CZ01', 'CZ02', 'CZ03', 'CZ04', 'MZ01', 'MZ02', 'RZ05', 'RZ06', 'TZ05', 'TZ06', 'NZ06', 'IZ06'];
const llamaOverrides: Record<string, Omit<RowSpec, 'model' | 'short'>> = { ...proseJudge(JUDGE_HOSTED) };
for (const short of llamaFails) llamaOverrides[short] = { status: 'fail', reason: `wrong answer on ${short}` };
llamaOverrides.CZ03 = {
  status: 'fail',
  reason: 'SyntaxError: <b>unexpected</b> token',
  patch: { content: `Here is my code:\n${XSS}\n`, reasoning: `thinking ${XSS}` },
};
for (const short of ['LZ04', 'LZ05', 'LZ06']) llamaOverrides[short] = { status: 'skipped', reason: 'needs 26048 ctx > model 8192' };
llamaOverrides.MZ03 = { revision: 'r2' };
const llama = modelRows('llama-small', llamaOverrides, { run: 'run-c', finished: '2026-05-03T10:00:00.000Z' }).map((row, i) => ({
  ...row,
  timings: { ttft_s: 0.2, ttft_content_s: 0.25, e2e_s: 3, decode_tps: i % 2 === 0 ? 120 : 130 },
}));

/** mystery-7b — coding only: passes CZ01–CZ03, fails CZ04–CZ06 (3/6). $2 per row → $12.00. No speed. */
const mystery = modelRows(
  'mystery-7b',
  {
    CZ04: { status: 'fail', reason: 'timeout >15s' },
    CZ05: { status: 'fail', reason: 'setup NameError: name "np" is not defined' },
    CZ06: { status: 'fail', reason: 'AssertionError: expected [2, 3], got [2]' },
  },
  { patch: { cost_usd: 2 } },
  (short) => short.startsWith('CZ'),
);

export const ROWS: ResultRow[] = [...deepseek, ...qwen, ...llama, ...mystery];

export const MANIFESTS: RunManifest[] = [
  {
    schema_version: 1,
    run_id: 'run-a',
    created_at: '2026-05-01T08:00:00.000Z',
    tool_version: '0.1.0',
    profile: 'bench',
    models: ['deepseek-pro', 'qwen3-local', 'mystery-7b'].map((label) => ({ label, model_id: `${label}-id`, provider: 'openai-compatible' })),
    cases: ALL_CASES.map((c) => ({ id: caseId(c.short), revision: 'r1', seed: 7 })),
    seed: 7,
    judge: JUDGE_RIG,
  },
  {
    schema_version: 1,
    run_id: 'run-c',
    created_at: '2026-05-03T08:00:00.000Z',
    tool_version: '0.1.0',
    profile: 'bench',
    models: [{ label: 'llama-small', model_id: 'llama-small-id', provider: 'openai-compatible' }],
    cases: ALL_CASES.map((c) => ({ id: caseId(c.short), revision: c.short === 'MZ03' ? 'r2' : 'r1', seed: 7 })),
    seed: 7,
    judge: JUDGE_RIG,
  },
];

export const SPEED: SpeedSummary[] = [
  { model: 'deepseek-pro', ttft_s: 0.42, decode_tps: 95.3, prefill_tps: 2100, plausibility: { confidence: 'HIGH', reasons: [] } },
  { model: 'qwen3-local', ttft_s: 0.9, decode_tps: 41, prefill_tps: 850, plausibility: { confidence: 'MEDIUM', reasons: ['short run'] } },
];

export const PAIRWISE: PairwiseSummary = {
  models: ['deepseek-pro', 'qwen3-local', 'llama-small'],
  pairs: [
    { a: 'deepseek-pro', b: 'qwen3-local', wins: 6, ties: 2, losses: 2, win_rate: 0.7, ci95: [0.4, 0.89] },
    { a: 'deepseek-pro', b: 'llama-small', wins: 8, ties: 1, losses: 1, win_rate: 0.85, ci95: [0.55, 0.96] },
    { a: 'qwen3-local', b: 'llama-small', wins: 5, ties: 0, losses: 5, win_rate: 0.5, ci95: [0.24, 0.76] },
  ],
  ratings: [
    { model: 'deepseek-pro', rating: 1180 },
    { model: 'qwen3-local', rating: 960 },
    { model: 'llama-small', rating: 860 },
  ],
  judge: JUDGE_RIG,
};

export const GENERATED_AT = '2026-05-04T12:00:00.000Z';
