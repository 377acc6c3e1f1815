import { judgeSummaryLine } from '@crucibleforge/report';
import { configuredSecrets, eventText, judgeRun } from '@crucibleforge/runner';
import { listFlag, parseCommandArgs, type ParsedCommandArgs } from '../args';
import { EXIT, type CliIO, type CommandModule } from '../io';
import { runIdOf, runnerBase, STORE_OPTIONS, withJsonOutput } from '../runner-context';
import { JSON_FLAG_HELP } from '../output';

const usage = `Usage: crucibleforge judge [--run ID | --latest] [--retry-errors] [--force] [--force-self-judge]

Judges the rows of a run that wait for the judge (prose answers compared with their reference answer),
with the judge in models.yaml. The judge first passes a calibration canary; a verdict it cannot give
leaves the row pending (never a fail of the model).

  --run ID             the run (default: the newest)
  --latest             the newest run
  --retry-errors       also retry rows whose earlier verdict was a judge error
  --force              re-judge rows another judge (model, endpoint or judge prompt version) judged, so a
                       changed judge never leaves the run mixed; rows this judge already judged stay
  --force-self-judge   let the judge score its own answers (recorded in each verdict)
  --models a,b         only these models' rows
  --no-canary          skip the calibration canary
  --results DIR        results directory
  --config PATH        models.yaml to use
${JSON_FLAG_HELP}

Exit codes: 0 every row judged, 1 rows still pending (judge errors, self-judging skipped) or the canary failed.
`;

const options = {
  run: { type: 'string' },
  latest: { type: 'boolean' },
  'retry-errors': { type: 'boolean' },
  force: { type: 'boolean' },
  'force-self-judge': { type: 'boolean' },
  models: { type: 'string' },
  'no-canary': { type: 'boolean' },
  json: { type: 'boolean' },
  ...STORE_OPTIONS,
} as const;

export type JudgeValues = Partial<ParsedCommandArgs<typeof options>['values']>;

/** The judge step shared with `all`. */
export async function judgeStep(values: JudgeValues, io: CliIO, runId?: string, emit: (value: unknown) => void = () => {}): Promise<number> {
  const base = await runnerBase(io, values);
  const id = runId ?? (await runIdOf(base.resultsDir, values));
  const models = listFlag(values.models);
  const summary = await judgeRun({
    ...base,
    runId: id,
    retryErrors: values['retry-errors'] ?? false,
    force: values.force ?? false,
    forceSelfJudge: values['force-self-judge'] ?? false,
    canary: !values['no-canary'],
    signal: io.signal,
    ...(models ? { models } : {}),
    world: { secrets: configuredSecrets(base.config, io.env) },
    onEvent: (event) => io.stdout.write(`${eventText(event)}\n`),
  });
  io.stdout.write(judgeSummaryLine(summary, id));
  emit({ summary });
  return summary.pending > 0 ? EXIT.failed : EXIT.ok;
}

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    return withJsonOutput(io, 'judge', values.json, (io, emit) => judgeStep(values, io, undefined, emit));
  },
};
