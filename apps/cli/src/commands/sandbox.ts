import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CrucibleError } from '@crucibleforge/core';
import { describeResult, languageOf, type SandboxResult } from '@crucibleforge/sandbox';
import { openSandbox } from '../sandbox-open';
import { intFlag, numberFlag, parseCommandArgs, stringFlags } from '../args';
import { EXIT, UsageError, type CliIO, type CommandModule } from '../io';
import { inert } from '../output';

const usage = `Usage: crucibleforge sandbox exec --lang python|node <file> [--timeout-s N] [--memory-mb N] [--json] [--allow-unsandboxed]

Runs a program in the bubblewrap sandbox (no network, no home, no repository, read-only system,
private bounded /tmp, empty environment, time/CPU/memory/process/file/output limits).
Exits 0 whenever the program was run, whatever it did; 3 when no sandbox is available.

Options:
  --lang L             python or node (default: from the file extension, .py or .js/.mjs/.cjs)
  --timeout-s N        wall-time limit in seconds (default 15)
  --memory-mb N        memory limit in MiB (default 1024)
  --json               print exactly one JSON object, the result, on stdout
  --allow-unsandboxed  run without bwrap when it is unavailable (limits that remain still apply;
                       the result says sandboxed: false)

Environment:
  CRUCIBLEFORGE_BWRAP  path of the bwrap binary (default: /usr/bin/bwrap, /usr/local/bin/bwrap, /bin/bwrap)
`;


async function exec(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    ...stringFlags('lang', 'timeout-s', 'memory-mb'),
    json: { type: 'boolean', default: false },
    'allow-unsandboxed': { type: 'boolean', default: false },
  });
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? 'missing the program file' : `expected one program file, got ${positionals.length}: ${positionals.join(' ')}`);
  }
  const file = resolve(io.cwd, positionals[0]!);
  const language = languageOf(file, values.lang);
  if (!language && values.lang !== undefined) throw new UsageError(`--lang must be python or node, got "${values.lang}"`);
  if (!language) throw new UsageError(`--lang is required: cannot tell the language of ${positionals[0]} from its extension`);
  const timeoutS = numberFlag('timeout-s', values['timeout-s']);
  const memoryMb = intFlag('memory-mb', values['memory-mb'], 1024, 16);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new UsageError(`program file not found: ${file}`);
  const source = await readFile(file, 'utf8');

  const sandbox = await openSandbox(io, { who: 'crucibleforge sandbox', allowUnsandboxed: values['allow-unsandboxed'], poolSize: 1 });
  if (!sandbox) return EXIT.noSandbox;
  let result: SandboxResult;
  try {
    result = await sandbox.run({
      language,
      source,
      memoryMb,
      signal: io.signal,
      ...(timeoutS === undefined ? {} : { timeoutMs: Math.round(timeoutS * 1000) }),
    });
  } catch (error) {
    if (CrucibleError.isInstance(error)) {
      io.stderr.write(`crucibleforge sandbox: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }
  if (values.json) {
    io.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    io.stdout.write(result.stdout);
    io.stderr.write(result.stderr);
    if (result.stderr.length > 0 && !result.stderr.endsWith('\n')) io.stderr.write('\n');
    io.stderr.write(`${describeResult(result)}\n`);
  }
  return EXIT.ok;
}

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub !== 'exec') throw new UsageError(sub === undefined ? 'missing the subcommand: exec' : `unknown subcommand "${inert(sub)}" (expected: exec)`);
    return exec(rest, io);
  },
};
