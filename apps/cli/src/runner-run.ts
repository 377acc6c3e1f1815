/** The generation step shared by `run` and `all`: plan, ask about cost, gate on the sandbox, run, render. */
import { CATEGORIES } from '@crucibleforge/core';
import { configuredSecrets, createRun, defaultDriver, estimateLines, planRun, summarizeRun, summaryLines, type RunnerConfigData, type RunSummary } from '@crucibleforge/runner';
import type { Sandbox } from '@crucibleforge/sandbox';
import { openSandbox } from './sandbox-open';
import { categoriesFlag, intFlag, listFlag, stringFlags } from './args';
import { EXIT, UsageError, type CliIO } from './io';
import { VERSION } from './main';
import { CASES_DIR_DEFAULT, casesDirOf } from './cases-dir';
import { budgetFlag, leaseCacheOption, runnerBase, STORE_OPTIONS } from './runner-context';
import { renderRun } from './runner-render';
import { JSON_FLAG_HELP } from './output';

export const RUN_OPTIONS = {
  ...stringFlags('profile', 'models', 'categories', 'seed', 'resume', 'budget', 'cases'),
  yes: { type: 'boolean' },
  ...STORE_OPTIONS,
  'allow-unsandboxed': { type: 'boolean' },
  json: { type: 'boolean' },
  'no-speed': { type: 'boolean' },
} as const;

export const RUN_FLAGS_HELP = `  --profile NAME        which cases (standard, coding, chat, quick, full, …)
  --models a,b          model labels from models.yaml, or "all" for every enabled one
  --categories a,b      only these categories of the profile (${CATEGORIES.join(', ')})
  --seed N              seed for seeded cases (default 1; a new seed defeats memorisation)
  --yes                 do not ask before a run that costs money
  --resume ID           finish run ID (re-running the same command also finishes an unfinished run)
  --budget USD          stop before the run's cost could pass this amount
  --results DIR         results directory (default $CRUCIBLEFORGE_RESULTS or ./results)
  --config PATH         models.yaml to use
  --cases DIR           case directory (default: ${CASES_DIR_DEFAULT})
  --allow-unsandboxed   grade code without bubblewrap isolation when bwrap is missing (unsafe)
  --no-speed            do not measure each model's speed first (TTFT, decode, prefill: 2 runs per prompt
                        after 1 warm-up, stored in the run and shown on the board)
${JSON_FLAG_HELP}`;

type RunValues = { [K in keyof typeof RUN_OPTIONS]?: (typeof RUN_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

export interface GenerationResult {
  code: number;
  summary: RunSummary | null;
  resultsDir: string;
}

/**
 * What a run needs to grade code and lock GPUs, spread into the runner's options; null without a sandbox.
 * The world carries the configured keys so the runner redacts them from every row, record and event.
 */
export async function gradingWorld(
  io: CliIO,
  allowUnsandboxed: boolean,
  config: RunnerConfigData,
): Promise<{ world: { sandbox: Sandbox; secrets: string[] }; leaseCacheDir?: string } | null> {
  const sandbox = await openSandbox(io, { who: 'crucibleforge', allowUnsandboxed });
  return sandbox ? { world: { sandbox, secrets: configuredSecrets(config, io.env) }, ...leaseCacheOption(io.env) } : null;
}

export async function generate(values: RunValues, io: CliIO): Promise<GenerationResult> {
  if (!values.resume && (!values.profile || !values.models)) throw new UsageError('--profile and --models are required (or --resume ID)');
  const base = await runnerBase(io, values);
  const { resultsDir } = base;
  const casesDir = casesDirOf(io, values.cases);
  const budgetUsd = budgetFlag(values.budget);
  const driver = await defaultDriver(casesDir);
  const plan = await planRun({
    ...base,
    ...(values.models ? { models: listFlag(values.models) ?? [] } : {}),
    ...(values.profile ? { profile: values.profile } : {}),
    categories: categoriesFlag(values.categories),
    seed: intFlag('seed', values.seed, 1, 0),
    casesDir,
    driver,
    ...(values.resume ? { resume: values.resume } : {}),
    ...(budgetUsd === undefined ? {} : { budgetUsd }),
    toolVersion: VERSION,
    speed: !values['no-speed'],
  });
  const todo = plan.models.reduce((n, m) => n + m.todo.length, 0);
  if (todo === 0) {
    io.stdout.write(`run ${plan.runId} is already complete (${plan.total} cases)\n`);
    return { code: EXIT.ok, summary: await summarizeRun(resultsDir, plan.runId, true), resultsDir };
  }
  if (plan.estimate.priced) {
    io.stdout.write(`${estimateLines(plan).join('\n')}\n`);
    if (!values.yes && !(await io.confirm(`Start run ${plan.runId}?`))) {
      io.stderr.write('not started (pass --yes to run without asking)\n');
      return { code: EXIT.failed, summary: null, resultsDir };
    }
  }
  const grading = await gradingWorld(io, values['allow-unsandboxed'] ?? false, base.config);
  if (!grading) return { code: EXIT.noSandbox, summary: null, resultsDir };
  const handle = await createRun({ ...base, casesDir, driver, plan, toolVersion: VERSION, ...grading, signal: io.signal });
  await renderRun(handle.events, io);
  const summary = await handle.done;
  io.stdout.write(`${summaryLines(summary).join('\n')}\n`);
  const failed = !summary.complete || summary.models.some((m) => m.stopped !== null);
  return { code: failed ? EXIT.failed : EXIT.ok, summary, resultsDir };
}
