/**
 * The embedded demo: the main job (speed, the standard profile, judging, reports) against the sim endpoint
 * with two clearly labelled simulated models and a simulated judge. No model server needed.
 */
import { join } from 'node:path';
import type { SpeedSummary } from '@crucibleforge/core';
import { createDemoModels, type DemoModels, type DemoPace } from '@crucibleforge/demo';
import { configSchema, createRun, judgeRun, loadRun, summarizeRun, writeRunSpeed, type RunnerConfigData, type RunSummary } from '@crucibleforge/runner';
import type { Sandbox } from '@crucibleforge/sandbox';
import { startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { runSpeedBenchmark, type SpeedReport } from '@crucibleforge/timing';
import { profileCases } from './bench-llm-suite';
import { demoEngineSpeed } from './demo-engine';
import type { CliIO } from './io';
import { VERSION } from './main';
import { formatDuration } from './runner-context';
import { terminalWidth } from './output';
import { writeReport } from './runner-report';
import { judgeEventLine, renderRun, summaryLines } from './runner-render';

export const DEMO_PROFILE = 'standard';
export const DEMO_SEED = 1;

export interface DemoOptions {
  outDir: string;
  casesDir: string;
  pace: DemoPace;
  sandbox: Sandbox;
  io: CliIO;
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

async function speedOf(sim: SimEndpoint, model: string, io: CliIO): Promise<SpeedReport> {
  return runSpeedBenchmark({ baseUrl: sim.url, model, providerKind: 'generic', runs: 2, warmup: 1, maxTokens: 128, signal: io.signal });
}

function speedLine(report: SpeedReport, label: string): string {
  const s = report.summary;
  const f = (v: number | null, d: number) => (v === null ? '—' : v.toFixed(d));
  const confidence = s.plausibility?.confidence ?? '—';
  // A simulated model has no weights: nothing to hold its speed to.
  const why = confidence === 'UNKNOWN' && report.plausibility.weights_source === null ? ' (simulated: no weights)' : '';
  return `  ${label.padEnd(12)} TTFT ${f(s.ttft_s, 3)} s · decode ${f(s.decode_tps, 0)} T/s · prefill ${f(s.prefill_tps, 0)} T/s · plausibility ${confidence}${why}`;
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

export async function runDemo(o: DemoOptions): Promise<DemoOutcome> {
  const { io } = o;
  const say = (text = '') => io.stdout.write(`${text}\n`);
  const started = performance.now();
  const cases = await profileCases(o.casesDir, DEMO_PROFILE, DEMO_SEED, o.sandbox);
  const demo = await createDemoModels({ cases, pace: o.pace });
  const sim = await startSimEndpoint({ models: demo.models, port: 0, host: '127.0.0.1' });
  try {
    say(`CrucibleForge demo — a simulated OpenAI-compatible endpoint at ${sim.url}, no model server needed`);
    for (const id of Object.keys(demo.labels)) say(`  ${demo.labels[id]}`);
    say(`  ${cases.length} cases (profile ${DEMO_PROFILE}, seed ${DEMO_SEED}); ${o.sandbox.sandboxed ? 'code graded in the bubblewrap sandbox' : 'code graded WITHOUT a sandbox (bwrap unavailable; only the case set\'s own code runs)'}`);
    say(`  ${demo.faulty.id} is built to get these wrong:`);
    for (const f of demo.faults) say(`    - ${f.case_id}: ${f.description}`);
    say();

    say('⚡ speed (2 runs per prompt after 1 warm-up)');
    const speed: SpeedSummary[] = [];
    for (const model of [demo.strong.id, demo.faulty.id]) {
      const report = await speedOf(sim, model, io);
      speed.push(report.summary);
      say(speedLine(report, model));
    }
    say((await demoEngineSpeed(join(o.outDir, 'models'), io)).lines.join('\n'));
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
      toolVersion: VERSION,
      world: { sandbox: o.sandbox },
    });
    const onAbort = () => handle.stop('interrupted');
    io.signal.addEventListener('abort', onAbort, { once: true });
    let summary: RunSummary;
    try {
      await renderRun(handle.events, io);
      summary = await handle.done;
    } finally {
      io.signal.removeEventListener('abort', onAbort);
    }
    await writeRunSpeed(resultsDir, summary.run_id, speed); // `report` and the GUI show it later
    say(summaryLines(summary).join('\n'));
    say();

    const judged = await judgeRun({
      config,
      env: {},
      resultsDir,
      runId: summary.run_id,
      signal: io.signal,
      onEvent: (e) => {
        if (e.type !== 'judged') say(judgeEventLine(e));
      },
    });
    say(`judged ${judged.judged} answers: ${judged.correct} correct, ${judged.incorrect} incorrect, ${judged.judge_errors} judge errors`);
    say();

    const { table, files } = await writeReport({ resultsDir, runIds: [summary.run_id], formats: ['md', 'json', 'html'], outDir: o.outDir, speed, width: terminalWidth(o.io) });
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
