import { defaultDriver, loadRun, regradeRun, type RegradeSummary } from '@crucibleforge/runner';
import { listFlag, parseCommandArgs } from '../args';
import { casesDirOf } from '../cases-dir';
import { EXIT, UsageError, type CommandModule } from '../io';
import { resultsDirOf, runIdOf, withRunnerErrors } from '../runner-context';
import { openSandbox } from '../runner-run';
import { inert, JSON_FLAG_HELP, jsonMode } from '../output';

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
  run: { type: 'string' },
  latest: { type: 'boolean' },
  models: { type: 'string' },
  'dry-run': { type: 'boolean' },
  cases: { type: 'string' },
  results: { type: 'string' },
  'allow-unsandboxed': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

function summaryLines(s: RegradeSummary): string[] {
  const verb = s.dry_run ? 'would change' : 'changed';
  const out = [`${s.dry_run ? 'dry run: ' : ''}regraded ${s.regraded} row${s.regraded === 1 ? '' : 's'} of run ${s.run_id} with ${s.grader_version}; ${s.changed.length} ${verb} verdict`];
  for (const c of s.changed) {
    out.push(`  ${c.model} ${c.case_id}${c.seed === null ? '' : ` (seed ${c.seed})`}: ${c.from.status} → ${c.to.status} (${c.to.reason.slice(0, 100)}; was ${c.from.grader_version ?? 'unversioned'}: ${c.from.reason.slice(0, 80)})`);
  }
  if (s.skipped.length > 0) {
    const reasons = new Map<string, number>();
    for (const k of s.skipped) {
      const why = k.reason.replace(/ \(revision .*\)$/, '');
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
    out.push(`kept ${s.skipped.length} as they were: ${[...reasons].map(([why, n]) => `${n} ${why}`).join('; ')}`);
  }
  return out.map(inert);
}

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    if (values.run && values.latest) throw new UsageError('give --run ID or --latest, not both');
    const out = jsonMode(io, values.json);
    io = out.io;
    return withRunnerErrors(io, 'regrade', async () => {
      const resultsDir = resultsDirOf(io, values.results);
      const runId = await runIdOf(resultsDir, values);
      const run = await loadRun(resultsDir, runId);
      const driver = await defaultDriver(values.cases ? casesDirOf(io, values.cases) : run.manifest.runner.cases_dir);
      let opened: Promise<Awaited<ReturnType<typeof openSandbox>>> | null = null;
      const sandbox = async () => {
        const box = await (opened ??= openSandbox(io, values['allow-unsandboxed'] ?? false));
        if (!box) throw new UsageError('no sandbox: code cases cannot be graded (install bubblewrap or pass --allow-unsandboxed)');
        return box;
      };
      const models = listFlag(values.models);
      const summary = await regradeRun({ resultsDir, runId, driver, sandbox, dryRun: values['dry-run'] ?? false, ...(models ? { models } : {}) });
      io.stdout.write(`${summaryLines(summary).join('\n')}\n${summary.dry_run ? '' : `next: crucibleforge report --run ${runId}\n`}`);
      out.emit({ summary });
      return EXIT.ok;
    });
  },
};
