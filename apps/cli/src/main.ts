import { readFileSync } from 'node:fs';
import { COMMANDS } from './commands/registry';
import { EXIT, UsageError, type CliIO } from './io';

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
    '  -h, --help     show this help (or a command\'s help: crucibleforge <command> --help)',
    '  -v, --version  print the version',
    '',
  ].join('\n');
}

/** Runs one CLI invocation and returns the exit code. Never calls process.exit. */
export async function main(rawArgs: string[], io: CliIO): Promise<number> {
  const [first, ...rest] = rawArgs;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.stdout.write(usage());
    return first === undefined ? EXIT.usage : EXIT.ok;
  }
  if (first === '-v' || first === '--version') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const entry = COMMANDS[first];
  if (!entry) {
    io.stderr.write(`crucibleforge: unknown command "${first}"\n\n${usage()}`);
    return EXIT.usage;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`${command.usage.trimEnd()}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`crucibleforge ${first}: ${error.message}\n\n${command.usage.trimEnd()}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}
