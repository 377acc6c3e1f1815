/**
 * Shared plumbing of the runner commands (run, all, judge, recover, status, models, report, pairwise,
 * config, import-openclaw): where the config and results are, and how runner errors are shown (the cases
 * directory: ./cases-dir).
 */
import { join, resolve } from 'node:path';
import { CrucibleError, exitCodeOf, userDir } from '@crucibleforge/core';
import { latestRunId, loadConfig, resolveConfigPath, RunnerError, type RunnerConfig } from '@crucibleforge/runner';
import { EXIT, UsageError, type CliIO } from './io';
import { inert, jsonMode } from './output';

/** Discovery: --config, $CRUCIBLEFORGE_CONFIG, ./models.yaml, the user config dir. */
export async function locateConfig(io: CliIO, flag: string | undefined) {
  const dir = userDir(io.env, 'CONFIG');
  const envPath = io.env['CRUCIBLEFORGE_CONFIG'];
  return resolveConfigPath({
    cwd: io.cwd,
    ...(flag ? { flag: resolve(io.cwd, flag) } : {}),
    ...(envPath ? { envPath: resolve(io.cwd, envPath) } : {}),
    ...(dir ? { userConfigDir: dir } : {}),
  });
}

/**
 * The one missing-config error of every command: RUNNER_CONFIG_NOT_FOUND, which {@link withRunnerErrors}
 * prints on stderr with exit 2.
 */
export function configNotFound(searched: readonly string[]): CrucibleError {
  return new RunnerError('RUNNER_CONFIG_NOT_FOUND', `no models.yaml found (looked at ${searched.join(', ')}); create one with "crucibleforge config --init"`);
}

/** The validated config in use, or a RUNNER_CONFIG_NOT_FOUND error that says how to create one. */
export async function requireConfig(io: CliIO, flag: string | undefined): Promise<RunnerConfig> {
  const { path, searched } = await locateConfig(io, flag);
  if (!path) throw configNotFound(searched);
  return loadConfig(path);
}

/** The flags naming models.yaml and the results directory, shared by the runner commands. */
export const STORE_OPTIONS = { results: { type: 'string' }, config: { type: 'string' } } as const;

/** What every runner call starts from: the validated config, the environment and the results directory. */
export async function runnerBase(
  io: CliIO,
  values: { config?: string | undefined; results?: string | undefined },
): Promise<{ config: RunnerConfig; env: CliIO['env']; resultsDir: string }> {
  return { config: await requireConfig(io, values.config), env: io.env, resultsDir: resultsDirOf(io, values.results) };
}

/** The runner's `leaseCacheDir`: local GPU lock files under the user cache dir (absent without a home). */
export function leaseCacheOption(env: CliIO['env']): { leaseCacheDir?: string } {
  const cache = userDir(env, 'CACHE');
  return cache ? { leaseCacheDir: join(cache, 'locks') } : {};
}

/** --results DIR, else $CRUCIBLEFORGE_RESULTS, else ./results. */
export function resultsDirOf(io: CliIO, flag: string | undefined): string {
  return resolve(io.cwd, flag ?? io.env['CRUCIBLEFORGE_RESULTS'] ?? 'results');
}

/** --run ID, or the newest run (also for --latest or when neither is given). */
export async function runIdOf(resultsDir: string, values: { run?: string | undefined; latest?: boolean | undefined }): Promise<string> {
  if (values.run && values.latest) throw new UsageError('give --run ID or --latest, not both');
  return values.run ?? latestRunId(resultsDir);
}

/** Parses --budget USD. */
export function budgetFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const usd = Number(value.replace(/^\$/, ''));
  if (!Number.isFinite(usd) || usd <= 0) throw new UsageError(`--budget must be an amount in USD > 0, got "${value}"`);
  return usd;
}

/**
 * Runs a command body, turning a CrucibleError into its message and the exit code of its kind (a bad
 * models.yaml, a missing key, an unknown run or model: 2; no sandbox: 3; anything else: 1).
 */
export async function withRunnerErrors(io: CliIO, command: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof UsageError || !CrucibleError.isInstance(error)) throw error;
    // an endpoint's error text can carry anything: shown, never obeyed
    io.stderr.write(`crucibleforge ${command}: ${inert(error.message)}\n`);
    return exitCodeOf(error.kind);
  }
}

/** {@link withRunnerErrors} for a command with `--json`: the body's io sends a person's lines to stderr, `emit` prints the one JSON document on stdout. */
export function withJsonOutput(io: CliIO, command: string, json: boolean | undefined, body: (io: CliIO, emit: (value: unknown) => void) => Promise<number>): Promise<number> {
  const out = jsonMode(io, json);
  return withRunnerErrors(out.io, command, () => body(out.io, out.emit));
}

/** The io with API keys redacted in everything written (core's). */
export { redactingIO } from '@crucibleforge/core';
