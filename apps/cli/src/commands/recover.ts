import { recoverRun, summaryLines } from '@crucibleforge/runner';
import { listFlag, parseCommandArgs } from '../args';
import { EXIT, UsageError, type CommandModule } from '../io';
import { VERSION } from '../main';
import { runnerBase, STORE_OPTIONS, withJsonOutput } from '../runner-context';
import { JSON_FLAG_HELP } from '../output';
import { renderRun } from '../runner-render';
import { gradingWorld } from '../runner-run';

const usage = `Usage: crucibleforge recover --run ID [--models a,b]

Re-runs only the rows of run ID whose reasoning overflowed (the model thought until its token budget
ran out) and were not recovered: first with reasoning turned off, then by asking for the final answer
after the cut-off reasoning. The new rows replace the old ones in the same run. Run "judge" next.

  --run ID              the run
  --models a,b          only these models
  --results DIR         results directory
  --config PATH         models.yaml to use
  --allow-unsandboxed   grade code without bubblewrap (unsafe)
${JSON_FLAG_HELP}
`;

const options = {
  run: { type: 'string' },
  models: { type: 'string' },
  ...STORE_OPTIONS,
  'allow-unsandboxed': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    if (!values.run) throw new UsageError('--run ID is required');
    const runId = values.run;
    return withJsonOutput(io, 'recover', values.json, async (io, emit) => {
      const base = await runnerBase(io, values);
      const models = listFlag(values.models);
      const grading = await gradingWorld(io, values['allow-unsandboxed'] ?? false, base.config);
      if (!grading) return EXIT.noSandbox;
      const handle = await recoverRun({ ...base, runId, toolVersion: VERSION, ...grading, signal: io.signal, ...(models ? { models } : {}) });
      if (handle.plan.total === 0) {
        handle.stop();
        await handle.done;
        io.stdout.write(`run ${runId} has no unrecovered reasoning overflows\n`);
        emit({ summary: null });
        return EXIT.ok;
      }
      await renderRun(handle.events, io);
      const summary = await handle.done;
      io.stdout.write(`${summaryLines(summary).join('\n')}\nnext: crucibleforge judge --run ${runId}\n`);
      emit({ summary });
      return summary.models.some((m) => m.stopped) ? EXIT.failed : EXIT.ok;
    });
  },
};
