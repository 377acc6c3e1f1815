import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyProfile, findProfile, loadCaseSet, materializeCase } from '@crucibleforge/cases';
import { createDemoModels, type PlannedFault } from '@crucibleforge/demo';
import { detectSandbox } from '@crucibleforge/sandbox';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchResults } from '@crucibleforge/report';
import type { RunRow } from '@crucibleforge/runner';
import { writeTinyLlama } from '@crucibleforge/speed/testing';

type BenchLlmResults = BenchResults<RunRow>;
import { main } from '../main';
import { memoryIO, REAL_CASES_DIR } from '@crucibleforge/testkit';

const CASES = REAL_CASES_DIR;
const home = mkdtempSync(join(tmpdir(), 'cf-bench-llm-'));
let sim: SimEndpoint;
let quickCases: { id: string; max_tokens: number }[] = [];
/** Where bubblewrap is missing, the code test still runs (it is the case set's own code, served by the sim). */
let sandboxArgs: string[] = [];

const fault = (case_id: string, kind: PlannedFault['kind']): PlannedFault => ({ case_id, kind, description: kind, expect_fail: kind !== 'overflow' });

beforeAll(async () => {
  sandboxArgs = (await detectSandbox()).available ? [] : ['--allow-unsandboxed'];
  const set = await loadCaseSet(CASES);
  const quick = applyProfile(findProfile(set.profiles, 'quick'), set.cases);
  const cases = await Promise.all(quick.map((c) => materializeCase(c.def, 1)));
  quickCases = cases;
  const strong = await createDemoModels({ cases, faults: [] });
  // The weak model: wrong code, a summary that drops a fact, invented log lines, and a logic answer that
  // first overflows its reasoning budget (recovered by the retry with reasoning off).
  const weak = await createDemoModels({
    cases,
    ids: { faulty: 'sim-weak' },
    faults: [
      fault('coding-median-of-list', 'wrong-code'),
      fault('prose-summary-key-facts', 'wrong-reply'),
      fault('agent-syslog-error-report', 'wrong-reply'),
      fault('reasoning-pet-owners', 'overflow'),
    ],
  });
  sim = await startSimEndpoint({ models: [strong.strong, weak.faulty] });
});

afterAll(async () => {
  await sim?.close();
  rmSync(home, { recursive: true, force: true });
});

async function bench(args: string[], env: Record<string, string> = {}) {
  const t = memoryIO({ env: { HOME: home, ...env }, cwd: home });
  const extra = env['CRUCIBLEFORGE_BWRAP'] || args.includes('--check') || args.includes('--list') ? [] : sandboxArgs;
  const code = await main(['bench-llm', ...args, ...extra, '--base-url', sim.url], t.io);
  return { code, out: t.stdout(), err: t.stderr() };
}

function savedFile(out: string): BenchLlmResults {
  const shown = /📄 Results saved: (\S+)/.exec(out)?.[1];
  expect(shown).toBeDefined();
  const path = shown!.replace(/^~/, home);
  expect(existsSync(path)).toBe(true);
  return JSON.parse(readFileSync(path, 'utf8')) as BenchLlmResults;
}

describe('bench-llm against the sim endpoint', { timeout: 60_000 }, () => {
  it('a strong model scores 5/5 and 3/3; the JSON file has every raw timing and response', async () => {
    const { code, out, err } = await bench(['sim-strong']);
    expect(err.replace(/^bench-llm: WARNING: bwrap is unavailable.*\n/, '')).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('bench-llm — Benchmarking: sim-strong');
    expect(out).toMatch(/⚡ SPEED BENCHMARKS\n {4}short_50 {4}TPS: mean=\d+\.\d {2,}TTFT: mean=\d\.\d{3}s {2,}TTFT content: mean=/);
    expect(out).toMatch(/medium_200 .*\n {4}long_800 /);
    expect(out).toContain('🔍 Validating speed plausibility...  Confidence: ');
    expect(out).toMatch(/ {4}Code Generation \(median_of_list\)\.+ PASS\n/);
    expect(out).toMatch(/ {4}Logic Puzzle \(Pet Ownership\)\.+ PASS\n/);
    expect(out).toContain('Ability Score: 5/5');
    // the seed's order: code, logic, JSON, instructions, summary
    const firstWords = out
      .split('\n')
      .filter((l) => /\.{3,} (PASS|FAIL)$/.test(l))
      .slice(0, 5)
      .map((l) => /^\s*(\S+)/.exec(l)?.[1]);
    expect(firstWords).toEqual(['Code', 'Logic', 'JSON', 'Instruction', 'Summarization']);
    expect(out).toMatch(/ {4}Task Acknowledgment\.+ PASS\n {4}Format Adherence\.+ PASS\n {4}Conciseness\.+ PASS\n/);
    expect(out).toContain('Agent Fitness Score: 3/3');
    expect(out).not.toContain('\u001b['); // no colour off a terminal
    // dotted lines end in one column
    const ends = out.split('\n').filter((l) => /\.{3,} (PASS|FAIL)$/.test(l)).map((l) => l.length);
    expect(new Set(ends.slice(0, 5)).size).toBe(1);

    const results = savedFile(out);
    expect(results.summary).toMatchObject({ ability_score: 5, ability_total: 5, agent_fitness_score: 3, agent_fitness_total: 3, reasoning_model: true, failed: [] });
    expect(results.speed!.tests.map((t) => t.name)).toEqual(['short_50', 'medium_200', 'long_800']);
    for (const t of results.speed!.tests) {
      expect(t.runs).toHaveLength(3);
      expect(t.warmup_runs).toHaveLength(1);
      expect(t.median.ttft_reasoning_s).not.toBeNull();
      expect(t.median.ttft_content_s!).toBeGreaterThanOrEqual(t.median.ttft_reasoning_s!);
    }
    expect(results.summary.speed[0]!.median.ttft_content_s).not.toBeNull();
    const code0 = results.rows.find((t) => t.case_id === 'coding-median-of-list')!;
    expect(code0.content).toContain('def median_of_list(numbers):');
    expect(code0.reasoning).toContain('median_of_list');
    expect(code0.timings.ttft_s).toBeGreaterThan(0);
    // The runner's preflight, 12 speed requests (3 prompts × (1 warm-up + 3 runs)), then one per test; token counts match the sim's own.
    const truth = sim.truth.filter((x) => x.model === 'sim-strong');
    expect(truth.length).toBe(1 + 3 * 4 + 6);
    expect(results.rows.map((r) => [r.usage.completion_tokens, r.usage.reasoning_tokens])).toEqual(truth.slice(13).map((x) => [x.completion_tokens, x.reasoning_tokens]));
    const speedRuns = results.speed!.tests.flatMap((t) => [...t.warmup_runs, ...t.runs]);
    expect(speedRuns.map((r) => (r.ok ? r.completion_tokens : null))).toEqual(truth.slice(1, 13).map((x) => x.completion_tokens));
    // the tests went through the runner: a durable run that `report` can read
    expect(results.run!.dir).toBe(join(home, 'benchmarks', 'runs', results.run!.run_id));
    expect(existsSync(join(results.run!.dir, 'rows.jsonl'))).toBe(true);
  });

  it('a weak model fails the right tests with the right reasons; an overflow is recovered and recorded', async () => {
    const { code, out } = await bench(['sim-weak', '--quick', '--out', join(home, 'weak')]);
    expect(code).toBe(0);
    expect(out).toMatch(/⚡ SPEED BENCHMARKS\n {4}short_50 .*\n {2}🔍/);
    expect(out).toMatch(/Code Generation \(median_of_list\)\.+ FAIL\n {6}↳ test 1 \(odd length, unsorted\) failed: expected 5, got 1\n/);
    expect(out).toMatch(/Logic Puzzle \(Pet Ownership\)\.+ PASS\n/);
    expect(out).toMatch(/JSON Compliance\.+ PASS\n/);
    expect(out).toMatch(/Instruction Following\.+ PASS\n/);
    expect(out).toMatch(/Summarization \(Key Facts\)\.+ FAIL\n {6}↳ check fact: the shipyard \(Nordhavn Marine\) failed: required word "Nordhavn" missing\n/);
    expect(out).toContain('Ability Score: 3/5');
    expect(out).toMatch(/Task Acknowledgment\.+ FAIL\n {6}↳ invents data: "Aug 11 02:14:07"\n/);
    // the invented report also never says how the scan should be done instead (the prompt asks for it)
    expect(out).toMatch(/Format Adherence\.+ FAIL\n {6}↳ check how the scan should be done instead failed: required word "grep" or "journalctl"/);
    expect(out).toContain('Agent Fitness Score: 1/3');
    const results = savedFile(out);
    expect(results.settings.quick).toBe(true);
    expect(results.speed!.tests.map((t) => [t.name, t.runs.length])).toEqual([['short_50', 2]]);
    // the runner's recovery: the overflowing reply first, then the retry with reasoning off on the case's own budget
    const puzzle = results.rows.find((t) => t.case_id === 'reasoning-pet-owners')!;
    expect(puzzle.overflow).toMatchObject({ happened: true, recovered: true });
    expect(puzzle.recovery).toMatchObject({ mode: 'reasoning-off', attempts: 2, first: { finish_reason: 'length' } });
    expect([puzzle.finish_reason, puzzle.content === '']).toEqual(['stop', false]);
    // a reasoning model is sent its case budget × reasoning_factor (4), like every run
    const budget = quickCases.find((c) => c.id === 'reasoning-pet-owners')!.max_tokens;
    expect(puzzle.max_tokens_sent).toBe(4 * budget);
    expect(results.summary.failed.map((f) => f.id).sort()).toEqual(['agent-syslog-error-report', 'coding-median-of-list', 'prose-summary-key-facts']);
  });

  it('without a sandbox the code test is skipped (never run unsandboxed) and the exit code is 3; --out FILE.json names the file, --json prints it', async () => {
    const file = join(home, 'nosandbox.json');
    const { code, out, err } = await bench(['sim-strong', '--quick', '--out', file, '--json'], { CRUCIBLEFORGE_BWRAP: '/nonexistent/bwrap' });
    expect(code).toBe(3);
    // --json: stdout is the saved results, the report lines went to stderr
    expect(JSON.parse(out)).toEqual(JSON.parse(readFileSync(file, 'utf8')));
    expect(err).toMatch(/Code Generation \(median_of_list\)\.+ SKIP/);
    const text = await bench(['sim-strong', '--quick', '--out', file], { CRUCIBLEFORGE_BWRAP: '/nonexistent/bwrap' });
    expect(text.code).toBe(3);
    expect(text.out).toMatch(/Code Generation \(median_of_list\)\.+ SKIP\n {6}↳ not run: no sandbox/);
    expect(text.out).toContain('Ability Score: 4/5');
    expect(text.out).toContain('Results saved: ~/nosandbox.json');
    const results = JSON.parse(readFileSync(file, 'utf8')) as BenchLlmResults;
    expect(results.rows.find((t) => t.case_id === 'coding-median-of-list')).toMatchObject({ grade: { status: 'skipped' }, messages: [], max_tokens_sent: null });
  });

  it('--speed-only runs no tests', async () => {
    const { code, out } = await bench(['sim-strong', '--quick', '--speed-only', '--out', join(home, 'speed')]);
    expect(code).toBe(0);
    expect(out).not.toContain('ABILITY');
    expect(savedFile(out).summary).toMatchObject({ ability_score: null, agent_fitness_score: null });
  });

  it('--list shows the endpoint models with what their metadata says', async () => {
    const { code, out } = await bench(['--list']);
    expect(code).toBe(0);
    expect(out).toContain(`2 models at ${sim.url} (metadata from openai, lmstudio)`);
    expect(out).toMatch(/MODEL +STATE +SIZE +QUANT +PARAMS +ARCH +EXPERTS +CONTEXT +GGUF\n {2}sim-strong +loaded +— +Q4_K_M +— +sim +— +131072 +—\n {2}sim-weak +loaded +— +Q4_K_M +— +sim +— +65536 +—\n/);
  });

  it('--list fills size, quantisation, parameters and architecture from a GGUF found in the LM Studio folders', async () => {
    const file = join(home, '.lmstudio', 'models', 'someone', 'sim-weak-GGUF', 'sim-weak-Q8_0.gguf');
    const model = await writeTinyLlama(file, { type: 'Q8_0', embedding: 32, layers: 1, heads: 2 });
    try {
      const { code, out } = await bench(['--list']);
      expect(code).toBe(0);
      expect(out).toContain('1 GGUF file found on disk');
      const row = out.split('\n').find((l) => l.trim().startsWith('sim-weak'))!;
      expect(row).toMatch(new RegExp(`sim-weak +loaded +\\d+ KB +Q8_0 +${(model.parameters / 1e3).toFixed(0)}K +llama +— +65536 +${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    } finally {
      rmSync(join(home, '.lmstudio'), { recursive: true, force: true });
    }
  });

  it('--check passes for a served model, says why it fails for a dead endpoint, and exits 3 without a sandbox', async () => {
    const ok = await bench(['--check', 'sim-strong']);
    expect(ok.out).toMatch(/✓ endpoint .*: 2 models listed\n {2}✓ streamed preflight: sim-strong answered \(TTFT \d\.\d{3} s/);
    const sandboxLine = /sandbox/.exec(ok.out);
    expect(sandboxLine).not.toBeNull();
    expect(ok.code).toBe(/✓ sandbox/.test(ok.out) ? 0 : 3);
    const noSandbox = await bench(['--check', 'sim-strong'], { CRUCIBLEFORGE_BWRAP: '/nonexistent/bwrap' });
    expect(noSandbox.code).toBe(3);
    expect(noSandbox.out).toMatch(/✗ sandbox unavailable: .*--allow-unsandboxed/);
    const t = memoryIO({ env: { HOME: home } });
    const dead = await main(['bench-llm', '--check', '--base-url', 'http://127.0.0.1:9/v1'], t.io);
    expect(dead).toBe(1);
    expect(t.stdout()).toContain('✗ endpoint http://127.0.0.1:9/v1: no answer from /models');
  });

  it('a case set that does not load is named, file and line, with exit 2', async () => {
    const broken = join(home, 'broken-cases');
    mkdirSync(join(broken, 'math'), { recursive: true });
    writeFileSync(join(broken, 'math', 'math-bad.yaml'), 'id: math-bad\ntitle: [unclosed\n');
    const { code, err } = await bench(['sim-strong', '--quick', '--cases', broken, '--out', join(home, 'broken')]);
    expect(code).toBe(2);
    expect(err).toMatch(/the cases in .*broken-cases do not load[\s\S]*math\/math-bad\.yaml:\d+/);
  });

  it('bad arguments are usage errors', async () => {
    const t = memoryIO({ env: { HOME: home } });
    expect(await main(['bench-llm'], t.io)).toBe(2);
    expect(t.stderr()).toContain('name the model to benchmark');
    expect(await main(['bench-llm', 'm', '--api-key-env', 'NOPE_NOT_SET'], t.io)).toBe(2);
    expect(t.stderr()).toContain('NOPE_NOT_SET: that environment variable is not set');
    expect(await main(['bench-llm', 'm', '--kind', 'tgi'], t.io)).toBe(2);
    expect(await main(['bench-llm', 'm', '--bandwidth-gbs', 'zero'], t.io)).toBe(2);
    expect(t.stderr()).toContain('--bandwidth-gbs must be a positive number');
    expect(await main(['bench-llm', 'm', '--gguf', join(home, 'missing.gguf')], t.io)).toBe(2);
    expect(t.stderr()).toContain('--gguf: cannot read GGUF file');
  });
});
