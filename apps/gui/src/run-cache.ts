import { realpath, stat } from 'node:fs/promises';
import { join, relative, sep, isAbsolute } from 'node:path';
import { loadRun, readRunSpeed, SPEED_FILE, type LoadedRun } from '@crucibleforge/runner';
import { HttpError } from './http';
import { checkRunId } from './paths';

/** One run as read from disk, with whatever the API derived from it (kept until a file changes). */
export interface CachedRun {
  run: LoadedRun;
  speed: Awaited<ReturnType<typeof readRunSpeed>>;
  /** Derived values by key (e.g. the results JSON), computed once per version of the files. */
  derived: Map<string, unknown>;
}

export interface RunCacheOptions {
  resultsDir: string;
  /** Refuse (413) a run whose files add up to more than this (default 128 MiB): the CLI reports on it. */
  maxRunBytes?: number;
  /** Runs kept in memory (default 4, least recently used dropped). */
  maxEntries?: number;
}

const FILES = ['manifest.json', 'rows.jsonl', SPEED_FILE];

function inside(base: string, target: string): boolean {
  const rel = relative(base, target);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && target.startsWith(base + sep);
}

/**
 * Reads runs for the GUI: only folders (and files) whose real path is inside the results directory (a run
 * folder or file that is a symlink to elsewhere is refused), within a size cap, one read per version of
 * the files however many requests ask at once.
 */
export class RunCache {
  readonly #entries = new Map<string, { version: string; value: Promise<CachedRun> }>();
  readonly #options: Required<RunCacheOptions>;

  constructor(options: RunCacheOptions) {
    this.#options = { maxRunBytes: 128 * 1024 * 1024, maxEntries: 4, ...options };
  }

  /** The run folder's real path, proven inside the results directory's real path; 404 when there is none. */
  async runDir(runId: string): Promise<string> {
    checkRunId(runId);
    const root = await realpath(this.#options.resultsDir).catch(() => null);
    if (root === null) throw new HttpError(404, `no run "${runId}" (the results directory does not exist)`);
    const dir = await realpath(join(root, runId)).catch(() => null);
    if (dir === null || !(await stat(dir).then((s) => s.isDirectory(), () => false))) throw new HttpError(404, `no run "${runId}"`);
    if (!inside(root, dir)) throw new HttpError(403, `run "${runId}" is a link to a folder outside the results directory; refused`);
    return dir;
  }

  /** What identifies this version of the run's files (real paths checked, sizes capped). */
  async #version(runId: string): Promise<{ version: string; root: string }> {
    const dir = await this.runDir(runId);
    let bytes = 0;
    const parts: string[] = [];
    for (const name of FILES) {
      const real = await realpath(join(dir, name)).catch(() => null);
      if (real === null) {
        parts.push(`${name}:-`);
        continue;
      }
      if (!inside(dir, real)) throw new HttpError(403, `run "${runId}": ${name} is a link to a file outside the run folder; refused`);
      const info = await stat(real);
      bytes += info.size;
      parts.push(`${name}:${info.size}:${info.mtimeMs}:${info.ino}`);
    }
    if (bytes > this.#options.maxRunBytes) {
      const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
      throw new HttpError(413, `run "${runId}" is ${mib(bytes)}, over the GUI's limit of ${mib(this.#options.maxRunBytes)}; report on it with: crucibleforge report ${runId}`);
    }
    return { version: parts.join('|'), root: join(dir, '..') };
  }

  async get(runId: string): Promise<CachedRun> {
    const { version, root } = await this.#version(runId);
    const hit = this.#entries.get(runId);
    if (hit && hit.version === version) {
      this.#entries.delete(runId); // most recently used last
      this.#entries.set(runId, hit);
      return hit.value;
    }
    const value = (async (): Promise<CachedRun> => {
      try {
        const run = await loadRun(root, runId);
        const speed = await readRunSpeed(root, runId).catch(() => null); // a broken speed.json only loses the speed figures
        return { run, speed, derived: new Map() };
      } catch (error) {
        if ((error as { code?: unknown }).code === 'RUNNER_UNKNOWN_RUN') throw new HttpError(404, `no run "${runId}"`);
        throw error;
      }
    })();
    this.#entries.set(runId, { version, value });
    value.catch(() => {
      if (this.#entries.get(runId)?.value === value) this.#entries.delete(runId);
    });
    while (this.#entries.size > this.#options.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    return value;
  }

  /** `compute(run)` once per version of the run's files. */
  async derive<T>(runId: string, key: string, compute: (entry: CachedRun) => T): Promise<T> {
    const entry = await this.get(runId);
    if (!entry.derived.has(key)) entry.derived.set(key, compute(entry));
    return entry.derived.get(key) as T;
  }
}
