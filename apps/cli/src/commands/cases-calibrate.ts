import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { calibrateAttempts, calibrationText, calibrationWriteProblem, withCalibration } from '@crucibleforge/cases/internal';
import { intFlag, parseCommandArgs, stringFlags } from '../args';
import { casesDirOf } from '../cases-dir';
import { EXIT, UsageError, type CliIO } from '../io';
import { lazySandbox } from '../sandbox-open';
import { concrete, pickCase } from './cases-grade';

/**
 * `cases calibrate <id> --attempts DIR --solver TEXT [--write]`: grades every blind attempt in DIR (one reply
 * file each, as `cases grade` reads them), prints the verdicts and the label the pass rate supports, and with
 * `--write` records `calibration` (and that label) in the case file.
 */
export async function calibrate(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    ...stringFlags('attempts', 'solver', 'date', 'review', 'seed', 'cases'),
    write: { type: 'boolean' },
    json: { type: 'boolean' },
    'allow-unsandboxed': { type: 'boolean' },
  });
  if (positionals.length > 1) throw new UsageError(`cases calibrate takes one case id, got ${positionals.length}`);
  if (values.attempts === undefined) throw new UsageError('cases calibrate needs --attempts DIR (one blind reply file per attempt)');
  if (values.write && !values.solver) throw new UsageError('cases calibrate --write needs --solver TEXT (who attempted, and how)');
  const date = values.date ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new UsageError(`--date ${date}: give YYYY-MM-DD`);
  const seed = intFlag('seed', values.seed, 1, 0);
  const dir = resolve(io.cwd, values.attempts);
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => !f.startsWith('.')).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  } catch (error) {
    throw new UsageError(`--attempts ${dir}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : String(error)}`);
  }
  if (files.length === 0) throw new UsageError(`--attempts ${dir}: no attempt files`);
  const picked = await pickCase(io, values.cases, positionals[0], 'calibrate');
  if (typeof picked === 'number') return picked;
  const sandbox = lazySandbox(io, { who: 'crucibleforge cases calibrate', allowUnsandboxed: values['allow-unsandboxed'] ?? false, poolSize: 2 });
  const c = await concrete(io, picked, seed, sandbox);
  if (typeof c === 'number') return c;
  if (c.grader.type === 'judge') throw new UsageError(`${c.id} is judged prose: calibrate auto-graded cases only`);
  const attempts = await Promise.all(files.map(async (file) => ({ file, text: await readFile(join(dir, file), 'utf8') })));
  const result = await calibrateAttempts(c, attempts, {
    solver: values.solver ?? '(not given)',
    date,
    review: values.review,
    sandbox: c.grader.type === 'code' ? await sandbox() : undefined,
    signal: io.signal,
  });
  const { verdicts, calibration, evidence } = result;
  // --json: stdout is the one JSON document; the verdict lines a person reads go to stderr
  const notes = values.json ? io.stderr : io.stdout;
  if (values.json) io.stdout.write(`${JSON.stringify({ id: c.id, labelled: picked.def.difficulty, evidence, calibration, verdicts }, null, 2)}\n`);
  else io.stdout.write(calibrationText(c.id, picked.def.difficulty, result));
  if (!values.write) return EXIT.ok;
  const path = join(casesDirOf(io, values.cases), picked.file);
  const problem = calibrationWriteProblem(picked.def, path, result);
  if (problem) throw new UsageError(problem);
  const updated = withCalibration(await readFile(path, 'utf8'), c.id, calibration);
  if (updated === null) throw new UsageError(`${path}: no case with id ${c.id}`);
  await writeFile(path, updated);
  notes.write(`recorded in ${path}\n`);
  return EXIT.ok;
}
