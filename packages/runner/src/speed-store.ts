import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jsonObject, type SpeedSummary } from '@crucibleforge/core';
import type { SpeedReport } from '@crucibleforge/speed';
import { RunnerError } from './errors';
import { runDir } from './storage';

/** A run's speed measurements live next to its rows: `results/<run>/speed.json`. */
export const SPEED_FILE = 'speed.json';

/** One model's speed in a run: the speed benchmark's report (what `speed --json` writes) under the model's label. */
export interface RunSpeed {
  /** The model's label in the run (what reports show). */
  model: string;
  /** The medians the board shows (the report's own summary, under the label). */
  summary: SpeedSummary;
  /** The whole measurement; null for a file written before runs measured speed (medians only). */
  report: SpeedReport | null;
}

interface SpeedFile {
  schema_version: 2;
  models: { model: string; report: SpeedReport }[];
}

const writes = new Map<string, Promise<unknown>>();

function storageError(file: string, message: string, cause?: unknown): RunnerError {
  return new RunnerError('RUNNER_STORAGE', `${file}: ${message}`, { ...(cause === undefined ? {} : { cause }), details: { file } });
}

/** Reads the file's entries: version 2 (labelled reports) or version 1 (medians only, the demo's old file). */
function entries(file: string, data: unknown): RunSpeed[] {
  const root = jsonObject(data);
  const models = root?.['models'];
  if (Array.isArray(models)) {
    return models.map((m, i) => {
      const entry = jsonObject(m);
      const report = jsonObject(entry?.['report']) as SpeedReport | null;
      const label = entry?.['model'];
      if (typeof label !== 'string' || !report || !jsonObject(report.summary)) throw storageError(file, `field "models[${i}]" must be { model, report } with the speed report`);
      return { model: label, summary: { ...report.summary, model: label }, report };
    });
  }
  const speed = root?.['speed'];
  if (!Array.isArray(speed) || speed.some((s) => typeof jsonObject(s)?.['model'] !== 'string')) {
    throw storageError(file, 'field "models" must be a list of { model, report } (or, in an old file, "speed" a list of speed summaries with a "model")');
  }
  return (speed as SpeedSummary[]).map((summary) => ({ model: summary.model, summary, report: null }));
}

/** A run's speed measurements, or null when it has none. A file that is not ours throws RUNNER_STORAGE, naming it. */
export async function readRunSpeed(resultsDir: string, runId: string): Promise<RunSpeed[] | null> {
  const file = join(runDir(resultsDir, runId), SPEED_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw storageError(file, `cannot read: ${(cause as Error).message}`, cause);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw storageError(file, `is not JSON: ${(cause as Error).message}`, cause);
  }
  return entries(file, data);
}

/**
 * Stores one model's speed report in its run's folder (replacing an earlier one of the same label; the other
 * models' stay), atomically (temp file, rename). Writes to one file are serialised within the process.
 */
export async function writeRunSpeed(resultsDir: string, runId: string, model: string, report: SpeedReport): Promise<string> {
  const file = join(runDir(resultsDir, runId), SPEED_FILE);
  const previous = writes.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(async () => {
    const kept = ((await readRunSpeed(resultsDir, runId)) ?? []).filter((s) => s.model !== model && s.report !== null);
    const content: SpeedFile = { schema_version: 2, models: [...kept.map((s) => ({ model: s.model, report: s.report! })), { model, report }] };
    const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(content, null, 2)}\n`);
      await rename(temp, file);
    } catch (cause) {
      throw storageError(file, `cannot write: ${(cause as Error).message}`, cause);
    }
    return file;
  });
  writes.set(file, next);
  try {
    return await next;
  } finally {
    if (writes.get(file) === next) writes.delete(file);
  }
}
