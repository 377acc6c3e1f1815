import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SpeedSummary } from '@crucibleforge/core';
import type { Comparison } from '@crucibleforge/report';
import { listRuns, writeRunSpeed } from '@crucibleforge/runner';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { FIXTURE_CASES_DIR, fixtureWorkspace, memoryIO, speedReportOf, startFixtureSim } from '@crucibleforge/testkit';

let sim: SimEndpoint;
let ws: { dir: string; config: string; results: string };
/** One run of strong and weak on every fixture case; one run of strong alone on the maths cases. */
let both: string;
let mathOnly: string;

// --no-speed: the tests store chosen speed figures with the runs
const store = () => ['--config', ws.config, '--results', ws.results, '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed', '--no-speed'];

async function compare(...args: string[]) {
  const t = memoryIO({ cwd: ws.dir });
  const code = await main(['compare', ...args, '--results', ws.results], t.io);
  return { code, out: t.stdout(), err: t.stderr() };
}

/** A speed summary with two rounds per prompt, `decode` T/s (±1 %), prefill 10× that, TTFT 10 / decode. */
function speed(model: string, decode: number): SpeedSummary {
  const rounds = ['short_50', 'medium_200'].flatMap((prompt) => [0.99, 1.01].map((f) => ({ prompt, decode_tps: decode * f, prefill_tps: decode * f * 10, ttft_s: 10 / (decode * f) })));
  return { model, decode_tps: decode, prefill_tps: decode * 10, ttft_s: 10 / decode, rounds };
}

beforeAll(async () => {
  sim = await startFixtureSim();
  ws = await fixtureWorkspace(sim.url);
  expect(await main(['run', '--profile', 'test', '--models', 'strong,weak', ...store()], memoryIO({ cwd: ws.dir }).io)).toBe(0);
  expect(await main(['run', '--profile', 'quick', '--models', 'strong', ...store()], memoryIO({ cwd: ws.dir }).io)).toBe(0);
  const runs = await listRuns(ws.results);
  both = runs.find((r) => r.models.length === 2)!.run_id;
  mathOnly = runs.find((r) => r.models.length === 1)!.run_id;
}, 60_000);
afterAll(async () => sim?.close());

describe('crucibleforge compare', () => {
  it('compares two models of one run: 4 pass → fail out of 4 is p = 2/16, within noise at this size, exit 0', async () => {
    const r = await compare(`${both}:strong`, `${both}:weak`, '--json');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const c = JSON.parse(r.out) as Comparison;
    // graded on both: coding, two maths, tooluse (the long-context case is skipped, prose waits for the judge)
    expect(c.ability.overall).toMatchObject({ cases: 4, regressions: 4, improvements: 0, p_value: 0.125, verdict: 'no-change' });
    expect(c.ability.flipped.map((f) => f.case_id)).toEqual(['coding-add-function', 'math-add-large', 'math-add-small', 'tooluse-weather-fahrenheit']);
    expect(c.ability.excluded.ungraded.map((u) => u.case_id)).toEqual(['prose-capital-france', 'reasoning-long-memo']);
    expect(c.speed).toMatchObject({ available: false });
    expect(c.gate).toMatchObject({ failed: false, unmeasured: ['decode', 'prefill', 'ttft'] });
  });

  it('prints a terminal summary by default and writes the Markdown block with --markdown', async () => {
    const md = join(ws.dir, 'out', 'compare.md');
    const r = await compare(`${both}:strong`, `${both}:weak`, '--markdown', md);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`baseline   ${both}:strong`);
    expect(r.out).toMatch(/flipped pass → fail \(4\):\n {2}coding-add-function \[coding, easy\]/);
    expect(r.out).toContain('no speed data for the baseline');
    expect(r.out).toMatch(/gate ability, decode T\/s, prefill T\/s, TTFT .*: passed/);
    expect(r.out).toContain(`wrote ${md}`);
    const text = await readFile(md, 'utf8');
    expect(text).toMatch(/^### CrucibleForge compare: ✅ gate passed/);
    expect(text).toContain('| Ability: all | 100.0% (4/4) | 0.0% (0/4) | −100.0 pp | 4 pass→fail, 0 fail→pass, McNemar p=0.13 | no detectable change |');
    const printed = await compare(`${both}:strong`, `${both}:weak`, '--markdown', '-');
    expect(printed.out).toBe(text);
  });

  it('gates on speed when the runs have it: exit 1 when the candidate is slower beyond noise and threshold, 0 the other way', async () => {
    await writeRunSpeed(ws.results, both, 'strong', speedReportOf(speed('strong', 100)));
    await writeRunSpeed(ws.results, both, 'weak', speedReportOf(speed('weak', 50)));
    const slower = await compare(`${both}:strong`, `${both}:weak`, '--gate', 'speed', '--max-slowdown', '10%', '--json');
    expect(slower.code).toBe(1);
    const c = JSON.parse(slower.out) as Comparison;
    expect(c.speed.metrics.map((m) => m.verdict)).toEqual(['worse', 'worse', 'worse']);
    expect(c.speed.metrics[0]!.ratio).toBeCloseTo(0.5, 12);
    expect(c.gate.checks.every((k) => k.failed)).toBe(true);
    // a slowdown within the allowed 60 % does not fail the job
    expect((await compare(`${both}:strong`, `${both}:weak`, '--gate', 'decode', '--max-slowdown', '60')).code).toBe(0);
    const faster = await compare(`${both}:weak`, `${both}:strong`, '--gate', 'speed');
    expect(faster.code).toBe(0);
    expect(faster.out).toMatch(/decode +better/);
    // the same side against itself: no detectable change anywhere
    const self = await compare(`${both}:strong`, `${both}:strong`, '--gate', 'all', '--json');
    expect(self.code).toBe(2); // cost is gated but nothing is priced
    const same = JSON.parse(self.out) as Comparison;
    expect([same.ability.overall.verdict, ...same.speed.metrics.map((m) => m.verdict)]).toEqual(['no-change', 'no-change', 'no-change', 'no-change']);
    expect(self.err).toContain('--gate names what cannot be measured here (cost: no paired case has a cost on both sides (not priced))');
  });

  it('exits 2 when --gate names speed but a run has none, and says why', async () => {
    const r = await compare(`${mathOnly}:strong`, `${both}:strong`, '--gate', 'ability,speed');
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/ {2}all +no detectable change/);
    expect(r.err).toContain(`decode: no speed data for the baseline ${mathOnly}:strong: its run has no speed summary`);
    // without --gate, missing speed is a note and the comparison still gates on ability
    expect((await compare(`${mathOnly}:strong`, `${both}:strong`)).code).toBe(0);
  });

  it('treats unknown runs and models, a missing model name, no shared cases and bad flags as usage errors (exit 2)', async () => {
    const unknown = await compare('nosuch:strong', `${both}:strong`);
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.err).toContain('no run "nosuch"');
    const model = await compare(`${both}:nosuch`, `${both}:strong`);
    expect(model.code).toBe(2);
    expect(model.err).toContain(`baseline: run ${both} has no model "nosuch" (it has strong, weak)`);
    const which = await compare(both, `${both}:strong`);
    expect(which.code).toBe(2);
    expect(which.err).toContain(`baseline: run ${both} has 2 models (strong, weak); name one as ${both}:<model>`);
    // `latest` is the newest run; a run with one model needs no label
    expect((await compare(mathOnly, 'latest')).code).toBe(0);

    await main(['run', '--profile', 'test', '--categories', 'coding,tooluse', '--models', 'weak', ...store()], memoryIO({ cwd: ws.dir }).io);
    const runs = await listRuns(ws.results);
    const codingOnly = runs.find((r) => r.run_id !== both && r.run_id !== mathOnly)!.run_id;
    const apart = await compare(`${mathOnly}:strong`, `${codingOnly}:weak`);
    expect(apart.code).toBe(2);
    expect(apart.err).toContain(`share no case graded on both at the same revision and seed: they have no case in common (baseline 2 cases, candidate 2 cases)`);

    for (const [flag, value, message] of [
      ['--gate', 'speedy', 'unknown gate "speedy"'],
      ['--max-slowdown', 'fast', '--max-slowdown must be a percentage ≥ 0'],
      ['--max-drop-pp', 'lots', '--max-drop-pp must be percentage points ≥ 0'],
      ['--alpha', '2', '--alpha must be a number between 0 and 1'],
    ] as const) {
      const bad = await compare(`${both}:strong`, `${both}:weak`, flag, value);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain(message);
    }
    expect((await compare(`${both}:strong`)).err).toContain('give a baseline and a candidate');
  });
});
