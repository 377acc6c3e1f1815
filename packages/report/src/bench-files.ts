/** Where bench-llm's results file goes (its content is {@link BenchResults}), and its colours. */
import { join, resolve } from 'node:path';
import { useColor } from '@crucibleforge/core';
import type { Paint } from './bench-text';

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

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** ANSI colour by core's one rule ({@link useColor}: FORCE_COLOR, NO_COLOR, a terminal); plain text otherwise. */
export function paintFor(isTTY: boolean | undefined, env: Record<string, string | undefined>): Paint {
  if (!useColor(isTTY, env)) return { pass: plain, fail: plain, warn: plain, dim: plain, bold: plain };
  return { pass: wrap(32, 39), fail: wrap(31, 39), warn: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}
