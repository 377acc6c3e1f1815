/** Where bench-llm's results file goes (its content is the reporter's BenchResults). */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** A model id as a file name: path separators and other awkward characters become `_`. */
export function fileSafe(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'model';
}

/** The local calendar date, YYYY-MM-DD. */
export function localDate(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** `--out FILE.json`, else `--out DIR/<model>-<date>.json`, else `~/benchmarks/<model>-<date>.json` (cwd when HOME is unset). */
export function resultsPath(o: { out?: string | undefined; cwd: string; home: string | undefined; model: string; date: Date }): string {
  if (o.out?.endsWith('.json')) return resolve(o.cwd, o.out);
  const dir = o.out ? resolve(o.cwd, o.out) : join(o.home ?? o.cwd, 'benchmarks');
  return join(dir, `${fileSafe(o.model)}-${localDate(o.date)}.json`);
}

/** `~/…` for paths under the home directory. */
export function shortPath(path: string, home: string | undefined): string {
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

export async function writeJsonFile(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}
