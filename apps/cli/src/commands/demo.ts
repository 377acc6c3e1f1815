import { resolve } from 'node:path';
import { userDir } from '@crucibleforge/core';
import type { Sandbox } from '@crucibleforge/sandbox';
import { openSandbox } from '../sandbox-open';
import { parseCommandArgs } from '../args';
import { closingLines, runDemo } from '@crucibleforge/demo';
import { EXIT, UsageError, type CliIO, type CommandModule } from '../io';
import { CASES_DIR_DEFAULT, casesDirOf } from '../cases-dir';
import { withJsonOutput } from '../runner-context';
import { renderRun } from '../runner-render';
import { VERSION } from '../main';
import { terminalWidth } from '../output';

export const DEFAULT_DEMO_DIR = 'crucibleforge-demo';

const usage = `Usage: crucibleforge demo [--out DIR] [--pace fast|realistic] [--cases DIR]

The main job end to end on an embedded simulated endpoint (no model server needed): two clearly labelled
simulated models — sim-strong answers from the cases' references, sim-faulty has realistic faults (wrong
code, a missed tool call, a followed injection, a reasoning overflow that recovery fixes, wrong facts) —
and a simulated judge. Runs the speed benchmark on both, the standard profile, judging, and writes
report.md, report.json and report.html.

Options:
  --out DIR       where the reports go (default ./${DEFAULT_DEMO_DIR}; the run's rows go to DIR/results)
  --pace P        fast (default: finishes in a minute or two) or realistic (local-GPU decode rates: slow)
  --cases DIR     the case set (default: ${CASES_DIR_DEFAULT})
  --json          print the outcome (run summary, files, surprises) as JSON on stdout; the rest goes to stderr

Code is graded in the bubblewrap sandbox; without bwrap the demo still runs it (it is the case set's own
reference and wrong solutions, not model output) and says so.
`;

/** The sandbox, else the case set's own code runs without one (it is not model output), and the demo says so. */
async function demoSandbox(io: CliIO): Promise<Sandbox> {
  const sandbox = await openSandbox(io, { who: 'crucibleforge demo', allowUnsandboxed: false, quiet: true });
  if (sandbox) return sandbox;
  io.stderr.write("crucibleforge demo: no usable sandbox (bubblewrap); running the case set's own code without it.\n");
  return (await openSandbox(io, { who: 'crucibleforge demo', allowUnsandboxed: true, quiet: true }))!;
}

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, { out: { type: 'string' }, pace: { type: 'string' }, cases: { type: 'string' }, json: { type: 'boolean' } }, false);
    const pace = values.pace ?? 'fast';
    if (pace !== 'fast' && pace !== 'realistic') throw new UsageError(`--pace must be fast or realistic, got "${pace}"`);
    const outDir = resolve(io.cwd, values.out ?? DEFAULT_DEMO_DIR);
    return withJsonOutput(io, 'demo', values.json, async (io, emit) => {
      const outcome = await runDemo({
        outDir,
        casesDir: casesDirOf(io, values.cases),
        pace,
        sandbox: await demoSandbox(io),
        toolVersion: VERSION,
        say: (line) => io.stdout.write(`${line}\n`),
        follow: (events) => renderRun(events, io),
        signal: io.signal,
        cacheDir: userDir(io.env, 'CACHE'),
        width: terminalWidth(io),
      });
      io.stdout.write(`${closingLines(outcome).join('\n')}\n`);
      emit({ summary: outcome.summary, files: outcome.files, surprises: outcome.surprises, faulty: outcome.faulty, seconds: outcome.seconds });
      const s = outcome.summary;
      return s.complete && s.models.every((m) => m.stopped === null) && outcome.surprises.length === 0 ? EXIT.ok : EXIT.failed;
    });
  },
};
