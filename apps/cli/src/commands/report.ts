import { join, resolve } from 'node:path';
import { parseReportFormats, REPORT_FORMATS } from '@crucibleforge/report';
import { listFlag, parseCommandArgs, stringFlags } from '../args';
import { EXIT, UsageError, type CommandModule } from '../io';
import { resultsDirOf, runIdOf, withJsonOutput } from '../runner-context';
import { JSON_FLAG_HELP, terminalWidth } from '../output';
import { writeReport } from '../runner-report';

const usage = `Usage: crucibleforge report [--run ID | --latest] [--models a,b] [--format md,json,html] [--out DIR]

Builds the report from stored results: per model and category pass rates with 95 % intervals, hard
cases, speed, cost, overflows, skips, judge identity, every failure with its reason, and paired tests.
Prints the summary table (fitted to the terminal; the full table is in report.md) and the files written.

  --run ID           one run (default: every run in the results dir, the latest attempt per case)
  --latest           the newest run
  --models a,b       only these models
  --format LIST      any of ${REPORT_FORMATS.join(', ')} (default all)
  --out DIR          where to write (default: the run's folder with --run/--latest, else the results dir)
  --results DIR      results directory (default $CRUCIBLEFORGE_RESULTS or ./results)
${JSON_FLAG_HELP}
`;

const options = {
  ...stringFlags('run', 'models', 'format', 'out', 'results'),
  latest: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    if (values.run && values.latest) throw new UsageError('give --run ID or --latest, not both');
    return withJsonOutput(io, 'report', values.json, async (io, emit) => {
      const resultsDir = resultsDirOf(io, values.results);
      const formats = parseReportFormats(values.format ?? '');
      const single = values.run || values.latest ? await runIdOf(resultsDir, values) : null;
      const outDir = values.out ? resolve(io.cwd, values.out) : single ? join(resultsDir, single) : resultsDir;
      const models = listFlag(values.models);
      const { table, files, data } = await writeReport({
        width: terminalWidth(io),
        resultsDir,
        runIds: single ? [single] : null,
        ...(models ? { models } : {}),
        formats,
        outDir,
      });
      io.stdout.write(`${table.trimEnd()}\n\n${files.map((f) => `wrote ${f}`).join('\n')}\n`);
      emit({ files, report: data });
      return EXIT.ok;
    });
  },
};
