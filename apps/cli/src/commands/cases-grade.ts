import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { assertKnownIds, grade as gradeReply, initialMessages, isCasesError, materializeCase, parseReplyFile, type LoadedCase, type MaterializedCase } from '@crucibleforge/cases';
import { caseShowText, gradeOutcomeText } from '@crucibleforge/cases/internal';
import type { Sandbox } from '@crucibleforge/sandbox';
import { intFlag, parseCommandArgs, stringFlags } from '../args';
import { casesDirOf } from '../cases-dir';
import { EXIT, UsageError, type CliIO } from '../io';
import { lazySandbox } from '../sandbox-open';
import { loadSelection } from './cases-load';

export async function pickCase(io: CliIO, casesFlag: string | undefined, id: string | undefined, what: string): Promise<LoadedCase | number> {
  if (id === undefined) throw new UsageError(`cases ${what} needs a case id`);
  const dir = casesDirOf(io, casesFlag);
  const selection = await loadSelection(io, dir, undefined);
  if (typeof selection === 'number') return selection;
  assertKnownIds([id], selection.all, `cases ${what}`);
  return selection.all.find((c) => c.def.id === id)!;
}

/** Materialises the case for the seed as a run does (derive programs in the sandbox); a number is an exit code. */
export async function concrete(io: CliIO, c: LoadedCase, seed: number, sandbox: () => Promise<Sandbox>): Promise<MaterializedCase | number> {
  try {
    return await materializeCase(c.def, seed, c.def.derive ? { sandbox: await sandbox() } : {});
  } catch (error) {
    // the case cannot be made for this seed (a derive program failed, a template is wrong): a failure of the case
    if (isCasesError(error)) {
      io.stderr.write(`crucibleforge cases: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }
}

/** `cases grade <id> --reply FILE`: grades one reply exactly as a run does. Exit 0 pass, 1 anything else. */
export async function grade(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    ...stringFlags('reply', 'seed', 'cases'),
    json: { type: 'boolean' },
    text: { type: 'boolean' },
    'allow-unsandboxed': { type: 'boolean' },
  });
  if (positionals.length > 1) throw new UsageError(`cases grade takes one case id, got ${positionals.length}`);
  if (values.reply === undefined) throw new UsageError('cases grade needs --reply FILE (the reply text, or the runner\'s JSON row)');
  const seed = intFlag('seed', values.seed, 1, 0);
  const file = resolve(io.cwd, values.reply);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--reply ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error)}`);
  }
  const input = parseReplyFile(text, file, values.text ?? false);
  const picked = await pickCase(io, values.cases, positionals[0], 'grade');
  if (typeof picked === 'number') return picked;
  const sandbox = lazySandbox(io, { who: 'crucibleforge cases', allowUnsandboxed: values['allow-unsandboxed'] ?? false, poolSize: 2 });
  const c = await concrete(io, picked, seed, sandbox);
  if (typeof c === 'number') return c;
  const box = c.grader.type === 'code' ? await sandbox() : undefined;
  const outcome = await gradeReply(c, input, { ...(box ? { sandbox: box } : {}), signal: io.signal });
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ id: c.id, seed: c.seed, revision: c.revision, ...outcome })}\n`);
  } else {
    io.stdout.write(gradeOutcomeText(c, outcome));
  }
  return outcome.status === 'pass' ? EXIT.ok : EXIT.failed;
}

/** `cases show <id>`: exactly what the model is sent for the case and seed; never the reference, grader or verify data. */
export async function show(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    seed: { type: 'string' },
    cases: { type: 'string' },
    json: { type: 'boolean' },
    'allow-unsandboxed': { type: 'boolean' },
  });
  if (positionals.length > 1) throw new UsageError(`cases show takes one case id, got ${positionals.length}`);
  const seed = intFlag('seed', values.seed, 1, 0);
  const picked = await pickCase(io, values.cases, positionals[0], 'show');
  if (typeof picked === 'number') return picked;
  const c = await concrete(io, picked, seed, lazySandbox(io, { who: 'crucibleforge cases', allowUnsandboxed: values['allow-unsandboxed'] ?? false, poolSize: 2 }));
  if (typeof c === 'number') return c;
  const messages = initialMessages(c);
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ messages, tools: c.tools, turns: c.turns, max_tokens: c.max_tokens }, null, 2)}\n`);
    return EXIT.ok;
  }
  io.stdout.write(caseShowText(c));
  return EXIT.ok;
}
