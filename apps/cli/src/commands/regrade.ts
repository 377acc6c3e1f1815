import { defaultDriver, loadRun, regradeLines, regradeRun } from '@crucibleforge/runner';
import { listFlag, parseCommandArgs, stringFlags } from '../args';
import { casesDirOf } from '../cases-dir';
import { EXIT, type CommandModule } from '../io';
import { resultsDirOf, runIdOf, withJsonOutput } from '../runner-context';
import { lazySandbox } from '../sandbox-open';
import { inert, JSON_FLAG_HELP } from '../output';

const usage = `Usage: crucibleforge regrade [--run ID | --latest] [--models a,b] [--dry-run] [--cases DIR]

Grades the stored replies of a run again with the current graders — no model is called. A new grade
record with the grader version goes into the run's log beside the old one (nothing is rewritten), and
"report" then shows which grader version graded each row. Judged rows keep their verdict (re-judge with
"judge"); error and skipped rows have no reply; rows whose case question changed since the run are left
as they are (the reply answered another revision).

  --run ID              the run (default: the newest)
  --latest              the newest run
  --models a,b          only these models' rows
  --dry-run             grade and print what would change, write nothing
  --cases DIR           the cases directory (default: the run's own)
  --results DIR         results directory (default $CRUCIBLEFORGE_RESULTS or ./results)
  --allow-unsandboxed   grade code without bubblewrap (unsafe)
${JSON_FLAG_HELP}
`;

const options = {
  ...stringFlags('run', 'models', 'cases', 'results'),
  latest: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  'allow-unsandboxed': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    return withJsonOutput(io, 'regrade', values.json, async (io, emit) => {
      const resultsDir = resultsDirOf(io, values.results);
      const runId = await runIdOf(resultsDir, values);
      const run = await loadRun(resultsDir, runId);
      const driver = await defaultDriver(values.cases ? casesDirOf(io, values.cases) : run.manifest.runner.cases_dir);
      // opened when a code row is graded; no bubblewrap (without --allow-unsandboxed) is SANDBOX_UNAVAILABLE, exit 3
      const sandbox = lazySandbox(io, { who: 'crucibleforge regrade', allowUnsandboxed: values['allow-unsandboxed'] ?? false });
      const models = listFlag(values.models);
      const summary = await regradeRun({ resultsDir, runId, driver, sandbox, dryRun: values['dry-run'] ?? false, ...(models ? { models } : {}) });
      io.stdout.write(`${inert(regradeLines(summary).join('\n'))}\n${summary.dry_run ? '' : `next: crucibleforge report --run ${runId}\n`}`);
      emit({ summary });
      return EXIT.ok;
    });
  },
};
