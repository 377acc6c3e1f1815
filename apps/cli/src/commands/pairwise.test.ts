import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { FIXTURE_CASES_DIR, fixtureWorkspace, memoryIO, startFixtureSim } from '@crucibleforge/testkit';

let sim: SimEndpoint;
beforeAll(async () => {
  sim = await startFixtureSim();
});
afterAll(async () => sim?.close());

describe('crucibleforge pairwise', () => {
  it('judges both orders and writes pairwise.md and pairwise.json', async () => {
    const ws = await fixtureWorkspace(sim.url);
    const common = ['--config', ws.config, '--results', ws.results];
    const t = memoryIO({ cwd: ws.dir });
    expect(await main(['run', '--profile', 'test', '--models', 'strong,weak', '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed', '--no-speed', ...common], t.io)).toBe(0);
    const before = sim.requests.length;
    const p = memoryIO({ cwd: ws.dir });
    expect(await main(['pairwise', '--models', 'strong,weak', ...common], p.io)).toBe(0);
    expect(p.stdout()).toContain('prose-capital-france: strong vs weak → A');
    expect(p.stdout()).toMatch(/\| strong \| weak \| 1 \| 0 \| 0 \|/);
    expect(sim.requests.length - before).toBe(2); // A/B and B/A
    const json = JSON.parse(await readFile(join(ws.results, 'pairwise.json'), 'utf8'));
    expect(json.games).toEqual([{ a: 'strong', b: 'weak', case_id: 'prose-capital-france', seed: null, result: 'A', position_bias: false }]);
    expect(json.summary.ratings.find((r: { model: string }) => r.model === 'strong').rating).toBeGreaterThan(1000);
    expect(await readFile(join(ws.results, 'pairwise.md'), 'utf8')).toMatch(/^# Pairwise comparison/);
    const one = memoryIO({ cwd: ws.dir });
    expect(await main(['pairwise', '--models', 'strong', ...common], one.io)).toBe(2);
    // the judge model has answers of its own, so only the self-judging guard can stop this comparison
    const own = memoryIO({ cwd: ws.dir });
    await main(['run', '--profile', 'test', '--models', 'judge', '--cases', FIXTURE_CASES_DIR, '--allow-unsandboxed', '--no-speed', ...common], own.io);
    const rows = (await readdir(ws.results, { recursive: true })).filter((f) => f.endsWith('.jsonl'));
    const logged = (await Promise.all(rows.map((f) => readFile(join(ws.results, f), 'utf8')))).join('\n');
    expect(logged).toMatch(/"model":"judge"[^\n]*"case_id":"prose-capital-france"|"case_id":"prose-capital-france"[^\n]*"model":"judge"/);
    const asked = sim.requests.length;
    const self = memoryIO({ cwd: ws.dir });
    expect(await main(['pairwise', '--models', 'strong,judge', ...common], self.io)).toBe(1);
    expect(self.stderr()).toMatch(/may not score its own answers/);
    expect(self.stderr()).not.toMatch(/no case has answers/);
    expect(sim.requests.length).toBe(asked);
  });
});
