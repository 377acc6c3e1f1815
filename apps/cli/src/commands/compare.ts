import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { compareRuns, DEFAULT_GATE, parseGate, parseThresholds, renderComparisonJson, renderComparisonMarkdown, renderComparisonText } from '@crucibleforge/report';
import { parseCommandArgs, stringFlags } from '../args';
import { loadSide, parseSideSpec } from '../compare-sides';
import { EXIT, UsageError, type CommandModule } from '../io';
import { resultsDirOf, withRunnerErrors } from '../runner-context';

const usage = `Usage: crucibleforge compare <baseline> <candidate> [--gate LIST] [--max-drop-pp N] [--max-slowdown P%] [--json] [--markdown FILE]

Did the change make it worse? Each side is RUN_ID[:model] (RUN_ID may be "latest"): two models of one run,
or the same model across two runs. Over the cases both sides graded at the same revision and seed: an exact
McNemar test overall and per category (Holm-adjusted) with the cases that flipped, pass → fail first. Speed
(decode, prefill, TTFT from the runs' speed.json): a change counts only when it exceeds the spread of both
speed runs' repeated rounds. Cost and output tokens per case with an exact sign test.

Exit 0: nothing gated is worse beyond noise and its threshold. Exit 1: something gated is. Exit 2: usage
errors — an unknown run or model, sides that share no graded case at the same revision and seed (the
reason is printed), or a metric named in --gate that cannot be measured (no speed data, not priced).

  --gate LIST              what fails the job: ability, decode, prefill, ttft, cost, tokens, speed (= the three
                           speed metrics), all, none (default ${DEFAULT_GATE.join(',')}; speed is skipped with a
                           note when a run has no speed data)
  --max-drop-pp N          pass-rate drop tolerated, percentage points (default 0)
  --max-slowdown P%        decode/prefill T/s drop or TTFT rise tolerated (default 0%)
  --max-cost-increase P%   cost per case rise tolerated (default 0%)
  --max-token-increase P%  output tokens per case rise tolerated (default 0%)
  --alpha A                significance level of the exact tests (default 0.05)
  --json                   print the comparison as JSON on stdout (instead of the summary)
  --markdown FILE          also write a Markdown block for a pull-request comment ("-": print it instead)
  --results DIR            results directory (default $CRUCIBLEFORGE_RESULTS or ./results)
  --baseline-results DIR   where the baseline run lives, when not in --results (a stored baseline)
`;

const options = {
  ...stringFlags('gate', 'max-drop-pp', 'max-slowdown', 'max-cost-increase', 'max-token-increase', 'alpha', 'markdown', 'results', 'baseline-results'),
  json: { type: 'boolean' },
} as const;

function alphaFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(n > 0 && n < 1)) throw new UsageError(`--alpha must be a number between 0 and 1 (e.g. 0.05), got "${value}"`);
  return n;
}

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, options);
    if (positionals.length !== 2) throw new UsageError(`give a baseline and a candidate (RUN_ID[:model] each), got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}`);
    const baselineSpec = parseSideSpec(positionals[0]!, 'baseline');
    const candidateSpec = parseSideSpec(positionals[1]!, 'candidate');
    const alpha = alphaFlag(values.alpha);
    return withRunnerErrors(io, 'compare', async () => {
      // an unknown gate or a bad threshold is a config error naming the flag (exit 2)
      const gate = values.gate === undefined ? undefined : parseGate(values.gate);
      const flag = (key: string) => `--${key.replace(/_/g, '-')}`;
      const thresholds = parseThresholds(
        { max_drop_pp: values['max-drop-pp'], max_slowdown: values['max-slowdown'], max_cost_increase: values['max-cost-increase'], max_token_increase: values['max-token-increase'] },
        flag,
      );
      const resultsDir = resultsDirOf(io, values.results);
      const baselineDir = values['baseline-results'] ? resolve(io.cwd, values['baseline-results']) : resultsDir;
      const comparison = compareRuns({
        baseline: await loadSide(baselineDir, baselineSpec, 'baseline'),
        candidate: await loadSide(resultsDir, candidateSpec, 'candidate'),
        ...(gate ? { gate } : {}),
        thresholds,
        ...(alpha === undefined ? {} : { alpha }),
      });
      const markdown = values.markdown;
      if (values.json) io.stdout.write(renderComparisonJson(comparison));
      else if (markdown === '-') io.stdout.write(renderComparisonMarkdown(comparison));
      else io.stdout.write(renderComparisonText(comparison));
      if (markdown !== undefined && markdown !== '-') {
        const file = resolve(io.cwd, markdown);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, renderComparisonMarkdown(comparison));
        (values.json ? io.stderr : io.stdout).write(`wrote ${file}\n`);
      }
      const g = comparison.gate;
      if (g.failed) return EXIT.failed;
      if (gate && g.unmeasured.length > 0) {
        const why = g.checks.filter((c) => !c.measured).map((c) => `${c.metric}: ${c.reason.replace(/^not checked: /, '')}`);
        io.stderr.write(`crucibleforge compare: --gate names what cannot be measured here (${why.join('; ')}); drop it from --gate or measure it\n`);
        return EXIT.usage;
      }
      return EXIT.ok;
    });
  },
};
