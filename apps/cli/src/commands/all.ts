import { join } from 'node:path';
import { parseCommandArgs } from '../args';
import { EXIT, type CommandModule } from '../io';
import { withJsonOutput } from '../runner-context';
import { terminalWidth } from '../output';
import { writeReport } from '../runner-report';
import { generate, RUN_FLAGS_HELP, RUN_OPTIONS } from '../runner-run';
import { judgeStep } from './judge';

const usage = `Usage: crucibleforge all --profile P --models a,b --yes [options]

run, then judge, then report: generates and grades every case, judges the prose answers with the
judge from models.yaml, and writes report.md, report.json and report.html into the run's folder.

${RUN_FLAGS_HELP}
  --retry-errors        also retry earlier judge errors
  --force-self-judge    let the judge score its own answers

Exit codes: 0 everything finished, 1 a model stopped, cases are missing or rows wait for the judge,
2 usage or config error, 3 no sandbox.
`;

const options = { ...RUN_OPTIONS, 'retry-errors': { type: 'boolean' }, 'force-self-judge': { type: 'boolean' } } as const;

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    return withJsonOutput(io, 'all', values.json, async (io, emit) => {
      const generation = await generate(values, io);
      if (!generation.summary) emit({ summary: null, files: [] });
      if (!generation.summary) return generation.code;
      const runId = generation.summary.run_id;
      let judgeCode: number = EXIT.ok;
      if (generation.summary.pending_judge > 0 || values['retry-errors']) {
        judgeCode = await judgeStep(
          {
            'retry-errors': values['retry-errors'],
            'force-self-judge': values['force-self-judge'],
            results: values.results,
            config: values.config,
          },
          io,
          runId,
        );
      }
      const { table, files } = await writeReport({
        width: terminalWidth(io),
        resultsDir: generation.resultsDir,
        runIds: [runId],
        formats: ['md', 'json', 'html'],
        outDir: join(generation.resultsDir, runId),
      });
      io.stdout.write(`\n${table.trimEnd()}\n\n${files.map((f) => `wrote ${f}`).join('\n')}\n`);
      emit({ summary: generation.summary, files });
      return Math.max(generation.code, judgeCode);
    });
  },
};
