import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { grade as gradeReply, parseReplyFile } from '@crucibleforge/cases';
import { difficultyFromEvidence, withCalibration, type BlindCalibration } from '@crucibleforge/cases/internal';
import type { Sandbox } from '@crucibleforge/sandbox';
import { intFlag, parseCommandArgs } from '../args';
import { casesDirOf } from '../cases-dir';
import { EXIT, UsageError, type CliIO } from '../io';
import { inert } from '../output';
import { lazySandbox } from '../sandbox-open';
import { concrete, pickCase } from './cases-grade';

/**
 * `cases calibrate <id> --attempts DIR --solver TEXT [--write]`: grades every blind attempt in DIR (one reply
 * file each, as `cases grade` reads them), prints the verdicts and the label the pass rate supports, and with
 * `--write` records `calibration` (and that label) in the case file.
 */
export async function calibrate(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    attempts: { type: 'string' },
    solver: { type: 'string' },
    date: { type: 'string' },
    review: { type: 'string' },
    seed: { type: 'string' },
    cases: { type: 'string' },
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
  let box: Sandbox | undefined;
  if (c.grader.type === 'code') box = await sandbox();
  const verdicts: { file: string; status: string; reason: string }[] = [];
  for (const name of files) {
    const file = join(dir, name);
    const input = parseReplyFile(await readFile(file, 'utf8'), file);
    const outcome = await gradeReply(c, input, { ...(box ? { sandbox: box } : {}), signal: io.signal });
    verdicts.push({ file: name, status: outcome.status, reason: outcome.reason });
  }
  const passes = verdicts.filter((v) => v.status === 'pass').length;
  const calibration: BlindCalibration = {
    attempts: verdicts.length,
    passes,
    solver: values.solver ?? '(not given)',
    date,
    revision: c.revision,
    ...(c.seed === null ? {} : { seed: c.seed }),
    ...(values.review ? { review: values.review } : {}),
  };
  const evidence = difficultyFromEvidence(calibration);
  // --json: stdout is the one JSON document; the verdict lines a person reads go to stderr
  const notes = values.json ? io.stderr : io.stdout;
  if (values.json) io.stdout.write(`${JSON.stringify({ id: c.id, labelled: picked.def.difficulty, evidence, calibration, verdicts }, null, 2)}\n`);
  else {
    // a grader's reason quotes the model's reply: its control characters are shown, not obeyed
    for (const v of verdicts) io.stdout.write(`${v.status === 'pass' ? 'PASS' : v.status.toUpperCase()} ${inert(v.file)}: ${inert(v.reason)}\n`);
    io.stdout.write(`${c.id}: ${passes} of ${verdicts.length} blind attempts passed: the evidence says ${evidence} (labelled ${picked.def.difficulty})\n`);
  }
  if (!values.write) return EXIT.ok;
  if (verdicts.length < 3) throw new UsageError(`--write needs at least 3 attempts (got ${verdicts.length})`);
  if (passes === 0 && !values.review) throw new UsageError('no attempt passed: re-check the case by hand and say what you confirmed with --review TEXT');
  if (evidence === 'hard' && !picked.def.why_hard) throw new UsageError(`${c.id}: the evidence says hard; add why_hard (what makes it hard) to ${picked.file} first`);
  const path = join(casesDirOf(io, values.cases), picked.file);
  const updated = withCalibration(await readFile(path, 'utf8'), c.id, calibration);
  if (updated === null) throw new UsageError(`${path}: no case with id ${c.id}`);
  await writeFile(path, updated);
  notes.write(`recorded in ${path}\n`);
  return EXIT.ok;
}
