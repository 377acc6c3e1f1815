import { mkdir, open, readdir, readFile, rename, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { takeBusyLock } from './busy-lock';
import { RunnerError } from './errors';
import { rowKey, type RowKey } from '@crucibleforge/core';
import {
  type LogRecord,
  type RunManifestFile,
  type RunRow,
  type StopReason,
} from './storage-types';
import type { HeldLease } from './world';

/** The folder inside a run's directory holding its session lock. */
export const SESSION_LOCK_DIR = '.session-lock';

const RUN_ID = /^[A-Za-z0-9._-]{1,80}$/;

/** Run ids are folder names: only `[A-Za-z0-9._-]`, never `..` (so no request can leave the results dir). */
export function assertRunId(id: string): void {
  if (!RUN_ID.test(id) || id === '.' || id === '..') {
    throw new RunnerError('RUNNER_UNKNOWN_RUN', `invalid run id "${id}" (letters, digits, . _ - only)`);
  }
}

/** `20250101-120000-ab12`: sortable by time, unique by a random suffix. */
export function newRunId(now: Date, random: () => number): string {
  const iso = now.toISOString();
  const stamp = `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
  const suffix = Math.floor(random() * 0x10000)
    .toString(16)
    .padStart(4, '0');
  return `${stamp}-${suffix}`;
}

export function runDir(resultsDir: string, runId: string): string {
  assertRunId(runId);
  return join(resultsDir, runId);
}

async function fsyncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // some file systems cannot fsync a directory; the rename is still atomic
  } finally {
    await handle?.close();
  }
}

/** Writes manifest.json atomically (temp file, fsync, rename, directory fsync). */
export async function writeManifest(resultsDir: string, manifest: RunManifestFile): Promise<string> {
  const dir = runDir(resultsDir, manifest.run_id);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'manifest.json');
  const temp = `${file}.tmp-${process.pid}`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(`${JSON.stringify(manifest, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  await fsyncDir(dir);
  return file;
}

export async function readManifest(resultsDir: string, runId: string): Promise<RunManifestFile> {
  const file = join(runDir(resultsDir, runId), 'manifest.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as RunManifestFile;
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
    throw new RunnerError(
      missing ? 'RUNNER_UNKNOWN_RUN' : 'RUNNER_STORAGE',
      missing ? `no run "${runId}" in ${resultsDir}` : `cannot read ${file}: ${(cause as Error).message}`,
      { cause, details: { file } },
    );
  }
}

/**
 * The append-only log of one run. Each record is one JSON line, written and fsynced before `append`
 * resolves, so a `kill -9` loses at most what was still in flight. Appends are serialised.
 */
export class RunLog {
  #chain: Promise<void> = Promise.resolve();
  #handle: FileHandle | null = null;
  #lock: HeldLease | null = null;
  readonly file: string;

  private constructor(file: string) {
    this.file = file;
  }

  /**
   * Opens the log for one session. The session holds `<run>/.session-lock/` (PID, host, start) until
   * `close()`, so two sessions never append to one run; a lock whose process died is taken over.
   */
  static async open(resultsDir: string, runId: string): Promise<RunLog> {
    const dir = runDir(resultsDir, runId);
    await mkdir(dir, { recursive: true });
    const log = new RunLog(join(dir, 'rows.jsonl'));
    log.#lock = await takeBusyLock({
      dir: join(dir, SESSION_LOCK_DIR),
      what: `run ${runId}`,
      reason: `session of run ${runId}`,
      advice: 'Another session is appending to it; wait for it to finish or stop it (a lock whose process has died is taken over automatically).',
    });
    try {
      const handle = await open(log.file, 'a+');
      log.#handle = handle;
      // A torn last line (killed mid-write) is healed: the next record starts on a fresh line.
      const size = (await handle.stat()).size;
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) await handle.appendFile('\n');
      }
    } catch (error) {
      await log.close().catch(() => undefined);
      throw error;
    }
    return log;
  }

  append(record: LogRecord): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    const next = this.#chain.then(async () => {
      if (!this.#handle) throw new RunnerError('RUNNER_STORAGE', `${this.file} is closed`);
      await this.#handle.appendFile(line);
      await this.#handle.datasync();
    });
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    try {
      await this.#chain;
      await this.#handle?.close();
      this.#handle = null;
    } finally {
      const lock = this.#lock;
      this.#lock = null;
      await lock?.release();
    }
  }
}

/** A run folded from its log: one row per key (the latest), verdicts applied to the attempt they judged. */
export interface LoadedRun {
  manifest: RunManifestFile;
  rows: RunRow[];
  stopped: { model: string; reason: StopReason; message: string; at: string }[];
  sessions: number;
  ended: boolean;
  /** Lines that could not be parsed (a torn final write). */
  torn: number;
  dir: string;
}

export function foldRecords(records: LogRecord[]): Pick<LoadedRun, 'rows' | 'stopped' | 'sessions' | 'ended'> {
  const rows = new Map<string, RunRow>();
  const stopped: LoadedRun['stopped'] = [];
  let sessions = 0;
  let ended = false;
  for (const record of records) {
    switch (record.kind) {
      case 'row': {
        const key = rowKey(record.row);
        rows.delete(key); // re-insert so order follows the latest attempt
        rows.set(key, record.row);
        break;
      }
      case 'judge': {
        const key = rowKey(record.key);
        const row = rows.get(key);
        if (row && row.attempt_id === record.attempt_id) rows.set(key, { ...row, judge: record.judge, grade: record.grade });
        break;
      }
      case 'regrade': {
        const key = rowKey(record.key);
        const row = rows.get(key);
        if (row && row.attempt_id === record.attempt_id) {
          const regraded_from = { status: row.grade.status, reason: row.grade.reason, grader_version: row.grader_version ?? null, at: record.at };
          rows.set(key, { ...row, grade: record.grade, grader_version: record.grader_version, regraded_from });
        }
        break;
      }
      case 'model-stopped':
        stopped.push({ model: record.model, reason: record.reason, message: record.message, at: record.at });
        break;
      case 'session':
        if (record.event === 'start') {
          sessions += 1;
          ended = false;
        } else ended = true;
        break;
    }
  }
  return { rows: [...rows.values()], stopped, sessions, ended };
}

export function parseLog(text: string): { records: LogRecord[]; torn: number } {
  const records: LogRecord[] = [];
  let torn = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line) as LogRecord);
    } catch {
      torn += 1;
    }
  }
  return { records, torn };
}

export async function loadRun(resultsDir: string, runId: string): Promise<LoadedRun> {
  const manifest = await readManifest(resultsDir, runId);
  const dir = runDir(resultsDir, runId);
  let text = '';
  try {
    text = await readFile(join(dir, 'rows.jsonl'), 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw new RunnerError('RUNNER_STORAGE', String(cause), { cause });
  }
  const { records, torn } = parseLog(text);
  return { manifest, ...foldRecords(records), torn, dir };
}

/** An error row that should be tried again on resume: the endpoint failed, not the model. */
export function isRetryableRow(row: RunRow): boolean {
  return row.grade.status === 'error' && row.error_class !== undefined;
}

/** Keys of the plan that have no final row yet. */
export function missingKeys(manifest: RunManifestFile, rows: RunRow[]): RowKey[] {
  const done = new Set(rows.filter((r) => !isRetryableRow(r)).map((r) => rowKey(r)));
  const keys: RowKey[] = [];
  for (const model of manifest.models) {
    for (const c of manifest.cases) {
      const key = { model: model.label, case_id: c.id, seed: c.seed };
      if (!done.has(rowKey(key))) keys.push(key);
    }
  }
  return keys;
}

export interface RunListing {
  run_id: string;
  created_at: string;
  profile: string;
  models: string[];
  total: number;
  done: number;
  passes: number;
  pending_judge: number;
  complete: boolean;
  fingerprint: string;
}

/** How a run is read (a server passes one with a cache, a size cap and a path guard). */
export type RunLoader = (resultsDir: string, runId: string) => Promise<LoadedRun>;

/** Every run in the results dir, oldest first. Folders without a readable manifest (or that `load` refuses) are ignored. */
export async function listRuns(resultsDir: string, load: RunLoader = loadRun): Promise<RunListing[]> {
  let entries: string[];
  try {
    entries = await readdir(resultsDir);
  } catch {
    return [];
  }
  const runs: RunListing[] = [];
  for (const name of entries) {
    if (!RUN_ID.test(name)) continue;
    try {
      if (!(await stat(join(resultsDir, name))).isDirectory()) continue;
      const run = await load(resultsDir, name);
      const missing = missingKeys(run.manifest, run.rows).length;
      const total = run.manifest.models.length * run.manifest.cases.length;
      runs.push({
        run_id: name,
        created_at: run.manifest.created_at,
        profile: run.manifest.profile,
        models: run.manifest.models.map((m) => m.label),
        total,
        done: total - missing,
        passes: run.rows.filter((r) => r.grade.status === 'pass').length,
        pending_judge: run.rows.filter((r) => r.grade.status === 'pending').length,
        complete: missing === 0,
        fingerprint: run.manifest.runner?.fingerprint ?? '',
      });
    } catch {
      // not a run folder
    }
  }
  return runs.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.run_id.localeCompare(b.run_id));
}

/** The newest run, or a RUNNER_UNKNOWN_RUN error saying there is none. */
export async function latestRunId(resultsDir: string): Promise<string> {
  const runs = await listRuns(resultsDir);
  const last = runs.at(-1);
  if (!last) throw new RunnerError('RUNNER_UNKNOWN_RUN', `no runs in ${resultsDir}`);
  return last.run_id;
}
