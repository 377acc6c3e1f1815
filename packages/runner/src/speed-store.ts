import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SpeedSummary } from '@crucibleforge/core';
import { RunnerError } from './errors';
import { runDir } from './storage';

/** The speed medians of a run live next to its rows: `results/<run>/speed.json`. */
export const SPEED_FILE = 'speed.json';

/** Stores a run's speed summaries (one per model) in its folder, atomically (temp file, rename). */
export async function writeRunSpeed(resultsDir: string, runId: string, summaries: readonly SpeedSummary[]): Promise<string> {
  const file = join(runDir(resultsDir, runId), SPEED_FILE);
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify({ schema_version: 1, speed: summaries }, null, 2)}\n`);
    await rename(temp, file);
  } catch (cause) {
    throw new RunnerError('RUNNER_STORAGE', `cannot write ${file}: ${(cause as Error).message}`, { cause, details: { file } });
  }
  return file;
}

/** A run's stored speed summaries, or null when it has none. A file that is not ours throws, naming it. */
export async function readRunSpeed(resultsDir: string, runId: string): Promise<SpeedSummary[] | null> {
  const file = join(runDir(resultsDir, runId), SPEED_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new RunnerError('RUNNER_STORAGE', `cannot read ${file}: ${(cause as Error).message}`, { cause, details: { file } });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new RunnerError('RUNNER_STORAGE', `${file} is not JSON: ${(cause as Error).message}`, { cause, details: { file } });
  }
  const speed = (data as { speed?: unknown } | null)?.speed;
  if (!Array.isArray(speed) || speed.some((s) => typeof (s as { model?: unknown } | null)?.model !== 'string')) {
    throw new RunnerError('RUNNER_STORAGE', `${file}: field "speed" must be a list of speed summaries with a "model"`, { details: { file } });
  }
  return speed as SpeedSummary[];
}
