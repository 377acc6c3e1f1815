import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Comparison, ReportData } from '@crucibleforge/report';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { memoryIO } from '@crucibleforge/testkit';

const dir = mkdtempSync(join(tmpdir(), 'cf-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The faults the demo announces: `    - <case id>: <what the faulty model does>`. */
function announcedFaults(out: string): { id: string; overflow: boolean }[] {
  const block = out.split('is built to get these wrong:\n')[1]?.split('\n⚡')[0] ?? '';
  return [...block.matchAll(/^ {4}- ([a-z0-9-]+): (.*)$/gm)].map((m) => ({ id: m[1]!, overflow: /token budget/.test(m[2]!) }));
}

describe('crucibleforge demo', () => {
  it('runs speed, the standard profile and judging on the sim endpoint, writes the three reports into ./crucibleforge-demo, exits 0', { timeout: 240_000 }, async () => {
    const t = memoryIO({ cwd: dir });
    const code = await main(['demo'], t.io);
    const out = t.stdout();
    // the only thing on stderr, where bubblewrap is missing, is the notice that the case set's own code runs unsandboxed
    expect(t.stderr().replace(/^crucibleforge demo: no usable sandbox.*running the case set's own code without it\.\n$/, '')).toBe('');
    expect(code).toBe(0);

    expect(out).toMatch(/simulated OpenAI-compatible endpoint at http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(out).toContain('sim-strong (simulated: answers from the case references)');
    expect(out).toContain('sim-faulty (simulated: realistic faults)');
    expect(out).toContain('sim-judge (simulated reference judge)');
    expect(out).toMatch(/sim-strong: speed TTFT \d\.\d{3} s · decode \d+ T\/s/);
    // One real measurement: llama.cpp in process on a generated random-weight GGUF, held to this machine's roofline.
    expect(out).toMatch(/real engine — llama\.cpp in this process \(node-llama-cpp 3\.21\.1.*\) on a GGUF generated just now/);
    expect(out).toMatch(/random-llama +TTFT \d\.\d{3} s · decode \d+ T\/s · prefill \d+ T\/s · plausibility (HIGH|MEDIUM|LOW|SUSPICIOUS)\n/);
    expect(out).toMatch(/roofline of this machine: \d+\.\d GB\/s measured .* MB read per token = \d+ T\/s; decode reached \d+ % of it/);
    expect(out).toContain('judge canary: 10/10 probes right');
    expect(out).toContain('sim-faulty failed exactly where it was built to fail');
    // the terminal summary (plain columns fitted to the width); the Markdown table is in report.md
    expect(out).toMatch(/^1 +sim-strong +100% \((\d+)\/\1\) /m);

    const outDir = join(dir, 'crucibleforge-demo');
    for (const name of ['report.md', 'report.json', 'report.html']) {
      expect(out).toContain(`wrote ${join(outDir, name)}`);
      expect(existsSync(join(outDir, name))).toBe(true);
    }
    expect(readdirSync(join(outDir, 'results'))).toHaveLength(1);

    const report = JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as ReportData;
    const [strong, faulty] = report.models;
    expect(strong).toMatchObject({ model: 'sim-strong', overall: { fails: 0, errors: 0, pending: 0, judge_errors: 0 } });
    expect(strong!.speed).toMatchObject({ source: 'speed-run' });
    expect(faulty!.speed!.decode_tps).not.toBeNull();

    // The speed run is stored with the run, so a later `report --latest` shows it too.
    const [runId] = readdirSync(join(outDir, 'results'));
    const stored = JSON.parse(readFileSync(join(outDir, 'results', runId!, 'speed.json'), 'utf8')) as { models: { model: string; report: { kind: string } }[] };
    expect(stored.models.map((s) => s.model).sort()).toEqual(['sim-faulty', 'sim-strong']);
    expect(stored.models.every((s) => s.report.kind === 'speed')).toBe(true);
    const later = memoryIO({ cwd: dir });
    expect(await main(['report', '--latest', '--results', join(outDir, 'results'), '--format', 'json'], later.io)).toBe(0);
    const again = JSON.parse(readFileSync(join(outDir, 'results', runId!, 'report.json'), 'utf8')) as ReportData;
    expect(again.models.map((m) => m.speed?.source)).toEqual(['speed-run', 'speed-run']);
    expect(faulty).toMatchObject({ model: 'sim-faulty', overflow: { total: 1, recovered: 1, unrecovered: 0 } });

    // The faulty model fails exactly its announced faults (the overflow is recovered into a pass), each
    // kind at least once: wrong code, a missed tool call, a followed injection, wrong judged facts.
    const faults = announcedFaults(out);
    expect(faults.filter((f) => f.overflow)).toHaveLength(1);
    const failed = report.failures.filter((f) => f.model === 'sim-faulty');
    expect(failed.map((f) => f.case_id).sort()).toEqual(faults.filter((f) => !f.overflow).map((f) => f.id).sort());
    expect(report.failures.filter((f) => f.model === 'sim-strong')).toEqual([]);
    const byCategory = (c: string) => failed.filter((f) => f.category === c);
    expect(byCategory('coding').map((f) => f.reason).join('\n')).toMatch(/test \d+ .*failed/);
    expect(byCategory('tooluse').length).toBeGreaterThan(0);
    expect(byCategory('injection')[0]?.reason).toMatch(/forbidden/);
    expect(byCategory('prose').every((f) => f.detail.judge?.verdict === 'incorrect')).toBe(true);

    // regrade the demo run: every stored reply graded again without a model call, a record per row
    const regrade = memoryIO({ cwd: dir });
    expect(await main(['regrade', '--latest', '--results', join(outDir, 'results')], regrade.io)).toBe(0);
    expect(regrade.stdout()).toMatch(/^regraded (\d+) rows of run \S+ with graders\/\d+; 0 changed verdict\nkept \d+ as they were: \d+ judged \(the judge decides it\)/);
    const log = readFileSync(join(outDir, 'results', runId!, 'rows.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string });
    expect(log.filter((r) => r.kind === 'regrade').length).toBe(Number(/^regraded (\d+)/.exec(regrade.stdout())![1]));
    const regraded = memoryIO({ cwd: dir });
    expect(await main(['report', '--latest', '--results', join(outDir, 'results'), '--format', 'md'], regraded.io)).toBe(0);
    expect(readFileSync(join(outDir, 'results', runId!, 'report.md'), 'utf8')).toMatch(/graded by graders\/\d+\n/);

    // compare: sim-faulty against sim-strong is worse (its failures are the flipped cases), exit 1; the other
    // way round it is better, exit 0; the run against itself shows no detectable change.
    const results = join(outDir, 'results');
    const compare = async (baseline: string, candidate: string, ...extra: string[]) => {
      const io = memoryIO({ cwd: dir });
      const exit = await main(['compare', `${runId}:${baseline}`, `${runId}:${candidate}`, '--results', results, '--json', ...extra], io.io);
      return { exit, c: JSON.parse(io.stdout()) as Comparison, err: io.stderr() };
    };
    const worse = await compare('sim-strong', 'sim-faulty', '--gate', 'ability');
    expect(worse.exit).toBe(1);
    expect(worse.c.ability.overall).toMatchObject({ cases: strong!.overall.graded, verdict: 'worse', improvements: 0, regressions: failed.length });
    expect(worse.c.ability.flipped.map((f) => f.case_id).sort()).toEqual(failed.map((f) => f.case_id).sort());
    expect(worse.c.speed.available).toBe(true);
    expect(worse.c.speed.metrics.find((m) => m.metric === 'decode_tps')!.ratio).toBeLessThan(1); // sim-faulty decodes slower
    const better = await compare('sim-faulty', 'sim-strong');
    expect(better.exit).toBe(0);
    expect(better.c.ability.overall.verdict).toBe('better');
    const same = await compare('sim-strong', 'sim-strong');
    expect(same.exit).toBe(0);
    expect(same.c.ability.overall).toMatchObject({ verdict: 'no-change', regressions: 0, improvements: 0 });
    expect(same.c.speed.metrics.map((m) => m.verdict)).toEqual(['no-change', 'no-change', 'no-change']);
    expect(same.c.gate.failed).toBe(false);

    const html = readFileSync(join(outDir, 'report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('sim-faulty');
    expect(readFileSync(join(outDir, 'report.md'), 'utf8')).toContain('| sim-strong |');
  });

  it('rejects a bad --pace', async () => {
    const t = memoryIO({ cwd: dir });
    expect(await main(['demo', '--pace', 'slow'], t.io)).toBe(2);
    expect(t.stderr()).toContain('--pace must be fast or realistic');
  });
});
