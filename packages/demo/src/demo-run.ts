/**
 * The demo job: the main job (speed, the standard profile, judging, reports) through the runner against the sim
 * endpoint with two clearly labelled simulated models and a simulated judge. No model server needed.
 */
import { join } from 'node:path';
import { applyProfile, findProfile, loadCaseSet, materializeCase } from '@crucibleforge/cases';
import { renderTerminalSummary } from '@crucibleforge/report';
import { configSchema, createRun, eventText, formatDuration, judgeRun, loadRun, summarizeRun, summaryLines, writeBoard, type RunEvent, type RunnerConfigData, type RunSummary } from '@crucibleforge/runner';
import type { Sandbox } from '@crucibleforge/sandbox';
import { startSimEndpoint } from '@crucibleforge/sim-endpoint';
import { demoEngineSpeed } from './demo-engine';
import { createDemoModels } from './models';
import type { DemoModels, DemoPace } from './types';

export const DEMO_PROFILE = 'standard';
export const DEMO_SEED = 1;

export interface DemoOptions {
  /** Where the reports go; the run's rows go to `<outDir>/results`. */
  outDir: string;
  casesDir: string;
  pace: DemoPace;
  sandbox: Sandbox;
  toolVersion: string;
  /** Each line of the demo's narration. */
  say: (line: string) => void;
  /** Shows the run's events as they come (the CLI's terminal renderer); resolves when they end. */
  follow: (events: AsyncIterable<RunEvent>) => Promise<void>;
  signal?: AbortSignal;
  /** Where the host memory bandwidth probe is cached (the app's user cache dir); none: measured each time. */
  cacheDir?: string | undefined;
  /** The terminal's width: the summary table fits it (default 80; the full table is in report.md). */
  width?: number;
}

export interface DemoOutcome {
  summary: RunSummary;
  files: string[];
  table: string;
  /** Planned faults whose row did not end as planned (empty when the demo behaved). */
  surprises: string[];
  /** The faulty model's id. */
  faulty: string;
  seconds: number;
}

/**
 * Replies are capped at this many tokens: the faulty model's reasoning overflow then streams a few thousand
 * tokens, not the full boosted budget of its case.
 */
const DEMO_MAX_TOKENS = 4096;

/** models.yaml for the demo, in memory: one provider per model (so both run side by side), the judge apart. */
export function demoConfig(url: string, demo: DemoModels): RunnerConfigData {
  const provider = { kind: 'generic', base_url: url, concurrency: 4 };
  const model = (provider: string, id: string, context: number | undefined) => ({ provider, id, context_length: context, max_tokens: DEMO_MAX_TOKENS });
  return configSchema.parse({
    version: 1,
    providers: { 'sim-strong': provider, 'sim-faulty': provider, 'sim-judge': { ...provider, concurrency: 8 } },
    models: {
      [demo.strong.id]: model('sim-strong', demo.strong.id, demo.strong.context_length),
      [demo.faulty.id]: model('sim-faulty', demo.faulty.id, demo.faulty.context_length),
      [demo.judge.id]: { provider: 'sim-judge', id: demo.judge.id, reasoning: 'off', enabled: false },
    },
    judge: { model: demo.judge.id },
  });
}

/** Which planned faults did not end the way the plan says (a failure, or a recovered overflow). */
async function checkFaults(resultsDir: string, runId: string, demo: DemoModels): Promise<string[]> {
  const rows = (await loadRun(resultsDir, runId)).rows.filter((r) => r.model === demo.faulty.id);
  return demo.faults.flatMap((f) => {
    const row = rows.find((r) => r.case_id === f.case_id);
    if (!row) return [`${f.case_id}: no row`];
    const ok = f.expect_fail ? row.grade.status === 'fail' : row.grade.status === 'pass' && row.overflow?.happened === true;
    return ok ? [] : [`${f.case_id} (${f.kind}): ended ${row.grade.status} — ${row.grade.reason}`];
  });
}

/** Runs the demo: narrates through `say`, shows the run through `follow`, writes the reports into `outDir`. */
export async function runDemo(o: DemoOptions): Promise<DemoOutcome> {
  const say = (text = '') => o.say(text);
  const started = performance.now();
  const set = await loadCaseSet(o.casesDir);
  const chosen = applyProfile(findProfile(set.profiles, DEMO_PROFILE), set.cases);
  const cases = await Promise.all(chosen.map((c) => materializeCase(c.def, DEMO_SEED, { sandbox: o.sandbox })));
  const demo = await createDemoModels({ cases, pace: o.pace });
  const sim = await startSimEndpoint({ models: demo.models, port: 0, host: '127.0.0.1' });
  try {
    say(`CrucibleForge demo — a simulated OpenAI-compatible endpoint at ${sim.url}, no model server needed`);
    for (const id of Object.keys(demo.labels)) say(`  ${demo.labels[id]}`);
    say(`  ${cases.length} cases (profile ${DEMO_PROFILE}, seed ${DEMO_SEED}); ${o.sandbox.sandboxed ? 'code graded in the bubblewrap sandbox' : 'code graded WITHOUT a sandbox (bwrap unavailable; only the case set\'s own code runs)'}`);
    say(`  ${demo.faulty.id} is built to get these wrong:`);
    for (const f of demo.faults) say(`    - ${f.case_id}: ${f.description}`);
    say();

    say('⚡ speed: each model is measured before its cases (2 runs per prompt after 1 warm-up), as every run does');
    say((await demoEngineSpeed(join(o.outDir, 'models'), { cacheDir: o.cacheDir, signal: o.signal })).lines.join('\n'));
    say();

    const resultsDir = join(o.outDir, 'results');
    const config = demoConfig(sim.url, demo);
    const handle = await createRun({
      config,
      env: {},
      models: [demo.strong.id, demo.faulty.id],
      profile: DEMO_PROFILE,
      seed: DEMO_SEED,
      resultsDir,
      casesDir: o.casesDir,
      autoResume: false,
      toolVersion: o.toolVersion,
      speed: true,
      world: { sandbox: o.sandbox },
      ...(o.signal ? { signal: o.signal } : {}),
    });
    await o.follow(handle.events);
    const summary = await handle.done;
    say(summaryLines(summary).join('\n'));
    say();

    const judged = await judgeRun({
      config,
      env: {},
      resultsDir,
      runId: summary.run_id,
      ...(o.signal ? { signal: o.signal } : {}),
      onEvent: (e) => {
        const line = eventText(e);
        if (e.type !== 'judged' && line) say(line);
      },
    });
    say(`judged ${judged.judged} answers: ${judged.correct} correct, ${judged.incorrect} incorrect, ${judged.judge_errors} judge errors`);
    say();

    const { data, files } = await writeBoard(resultsDir, [summary.run_id], { generatedAt: new Date().toISOString(), toolVersion: o.toolVersion, formats: ['md', 'json', 'html'], outDir: o.outDir });
    // fitted to the terminal (the wide table is in report.md)
    const table = renderTerminalSummary(data, o.width === undefined ? {} : { width: o.width });
    const surprises = await checkFaults(resultsDir, summary.run_id, demo);
    return {
      // the summary again, now with the judge's verdicts folded in
      summary: await summarizeRun(resultsDir, summary.run_id, summary.resumed),
      files,
      table,
      surprises,
      faulty: demo.faulty.id,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await sim.close();
  }
}

/** The demo's last words: the summary table, per model its passes, whether the faults landed as planned, the files. */
export function closingLines(outcome: DemoOutcome): string[] {
  const s = outcome.summary;
  const lines = [outcome.table.trimEnd(), ''];
  for (const m of s.models) lines.push(`${m.model}: ${m.passes}/${m.total} passed`);
  lines.push(
    outcome.surprises.length === 0
      ? `${outcome.faulty} failed exactly where it was built to fail (the judge caught its wrong facts; recovery fixed its overflow)`
      : `unexpected: ${outcome.surprises.join('; ')}`,
  );
  lines.push('', ...outcome.files.map((f) => `wrote ${f}`), `demo finished in ${formatDuration(outcome.seconds)}`);
  return lines;
}
