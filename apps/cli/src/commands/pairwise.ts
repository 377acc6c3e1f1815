import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { renderPairwiseMarkdown } from '@crucibleforge/report';
import { pairwiseRun, writePairwiseFile } from '@crucibleforge/runner';
import { categoriesFlag, listFlag, parseCommandArgs, stringFlags } from '../args';
import { EXIT, UsageError, type CommandModule } from '../io';
import { runnerBase, STORE_OPTIONS, withJsonOutput } from '../runner-context';
import { JSON_FLAG_HELP } from '../output';

const usage = `Usage: crucibleforge pairwise --models a,b[,c] [--run ID,…] [--categories …] [--out DIR]

Compares the models' answers to the same prompts with the judge from models.yaml. Each pair is judged
in both orders (A/B, then B/A) so position bias cancels; orders that disagree count as a tie. Writes
pairwise.md and pairwise.json (win/tie/loss, 95 % intervals, Bradley–Terry ratings).

  --models a,b[,c]      two or more model labels
  --run ID[,ID]         runs to take answers from (default: every run, the latest answer per case)
  --categories a,b      which rows (default: reference-answer rows and prose)
  --force-self-judge    allow the judge to be one of the compared models
  --out DIR             where to write (default: the results dir)
  --results DIR         results directory
  --config PATH         models.yaml to use
${JSON_FLAG_HELP}
`;

const options = {
  ...stringFlags('models', 'run', 'categories', 'out'),
  'force-self-judge': { type: 'boolean' },
  json: { type: 'boolean' },
  ...STORE_OPTIONS,
} as const;

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, options, false);
    const models = listFlag(values.models) ?? [];
    if (models.length < 2) throw new UsageError('--models needs at least two labels, e.g. --models a,b');
    const categories = categoriesFlag(values.categories);
    return withJsonOutput(io, 'pairwise', values.json, async (io, emit) => {
      const base = await runnerBase(io, values);
      const runIds = listFlag(values.run);
      const result = await pairwiseRun({
        ...base,
        models,
        ...(runIds ? { runIds } : {}),
        categories,
        forceSelfJudge: values['force-self-judge'] ?? false,
        signal: io.signal,
        onEvent: (e) => io.stdout.write(e.type === 'game' ? `${e.case_id}: ${e.a} vs ${e.b} → ${e.result}\n` : `${e.message}\n`),
      });
      const outDir = values.out ? resolve(io.cwd, values.out) : base.resultsDir;
      const jsonPath = await writePairwiseFile(outDir, result);
      const md = renderPairwiseMarkdown(result.summary);
      const mdPath = join(outDir, 'pairwise.md');
      await writeFile(mdPath, md);
      io.stdout.write(`\n${md}\nwrote ${mdPath}\nwrote ${jsonPath}\n`);
      emit({ summary: result.summary, games: result.games, files: [mdPath, jsonPath] });
      return EXIT.ok;
    });
  },
};
