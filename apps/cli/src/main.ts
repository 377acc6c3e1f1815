import { readFileSync } from 'node:fs';
import { didYouMean } from '@crucibleforge/core';
import { COMMANDS } from './commands/registry';
import { EXIT, UsageError, type CliIO, type CommandModule } from './io';
import { inert } from './output';

/**
 * The installed package's version, read at run time (src/ and dist/ both sit next to package.json): a version
 * bumped after the build (`changeset version`, then pack) is still the one printed.
 */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function usage(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(0, ...names.map((n) => n.length));
  const lines = names.map((name) => `  ${name.padEnd(width)}  ${COMMANDS[name]!.summary}`);
  return [
    `crucibleforge ${VERSION} — benchmark local and hosted LLMs for the jobs in your agent stack`,
    '',
    'Usage: crucibleforge <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    '  -h, --help     show this help (a command\'s help: crucibleforge help <command>, or <command> --help)',
    '  -v, --version  print the version',
    '',
  ].join('\n');
}

function unknownCommand(name: string, io: CliIO): number {
  const guess = didYouMean(name, Object.keys(COMMANDS));
  io.stderr.write(`crucibleforge: unknown command "${inert(name)}"${guess ? ` (did you mean "${guess}"?)` : ''}\n\n${usage()}`);
  return EXIT.usage;
}

/**
 * Runs one CLI invocation and returns the exit code. Never calls process.exit. A command the user
 * interrupted (`io.signal`: SIGINT/SIGTERM) ends with 130 whatever it returned, except a server, which
 * Ctrl-C ends normally.
 */
export async function main(rawArgs: string[], io: CliIO): Promise<number> {
  let server = false;
  const code = await dispatch(rawArgs, io, (command) => (server = command.servesUntilSignal === true));
  return io.signal.aborted && !server ? EXIT.interrupted : code;
}

async function dispatch(rawArgs: string[], io: CliIO, loaded: (command: CommandModule) => void = () => {}): Promise<number> {
  const [first, ...rest] = rawArgs;
  if (first === 'help' && rest[0] !== undefined && !rest[0].startsWith('-')) {
    // `crucibleforge help run` is `crucibleforge run --help`
    if (!COMMANDS[rest[0]]) return unknownCommand(rest[0], io);
    return dispatch([rest[0], '--help'], io, loaded);
  }
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.stdout.write(usage());
    return first === undefined ? EXIT.usage : EXIT.ok;
  }
  if (first === '-v' || first === '--version') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const entry = COMMANDS[first];
  if (!entry) return unknownCommand(first, io);
  const command = await entry.load();
  loaded(command);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`${command.usage.trimEnd()}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`crucibleforge ${first}: ${inert(error.message)}\n\n${command.usage.trimEnd()}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}
