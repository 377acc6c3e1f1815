import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CATEGORIES, didYouMean, redrawnLine } from '@crucibleforge/core';
import { formatVerifySummary, verifyCases } from '@crucibleforge/cases';
import { caseListRows, caseListText, filterCases, slowestCasesLine, verifyResultText } from '@crucibleforge/cases/internal';
import { lazySandbox } from '../sandbox-open';
import { withRunnerErrors } from '../runner-context';
import { parseCommandArgs, stringFlags } from '../args';
import { CASES_DIR_DEFAULT, casesDirOf } from '../cases-dir';
import { EXIT, UsageError, type CliIO, type CommandModule } from '../io';
import { inert } from '../output';
import { calibrate } from './cases-calibrate';
import { grade, show } from './cases-grade';
import { loadSelection } from './cases-load';

const usage = `Usage:
  crucibleforge cases list [--json] [--cases DIR] [--profile NAME] [--category C]
  crucibleforge cases verify [ID|FILE|FOLDER …] [--json] [--out FILE] [--cases DIR] [--profile NAME] [--allow-unsandboxed] [--verbose]
  crucibleforge cases grade ID --reply FILE [--seed N] [--cases DIR] [--json] [--text] [--allow-unsandboxed]
  crucibleforge cases show ID [--seed N] [--cases DIR] [--json]
  crucibleforge cases calibrate ID --attempts DIR [--solver TEXT] [--write] [--review TEXT] [--date D] [--seed N] [--json]

list    the cases (id, category, difficulty, seeded, title); --json prints an array of
        { id, category, difficulty, seeded, title, tags, revision }.
verify  proves every case: references executed in the sandbox, negative controls fail, answers
        re-derived, puzzles unique, haystacks rebuilt, tool references match. Give ids, files or
        folders to verify only those. On a terminal a progress line counts the cases as they finish.
        Exit 1 when any case has a problem, 2 for bad case files, 3 when no sandbox is available
        (unless --allow-unsandboxed).
grade   grades one reply exactly as a run does (code in the sandbox, every grader type; a judged case is
        "pending"). FILE is the reply text, or a JSON object with a string "content" as the runner
        stores it ({content, tool_calls_by_turn?, tool_calls?, transcript?, finish_reason?}); --text
        reads any file as reply text. --seed is the run seed (default 1). --json prints one object
        { id, seed, revision, status, reason, score?, details? }. Exit 0 pass, 1 fail (or error,
        pending), 2 usage, 3 no sandbox.
show    prints exactly what the model is sent for the case and seed: the system message, every user
        turn, the tool definitions, the answer budget; never the reference, grader or verify data.
        --json prints { messages, tools, turns, max_tokens } (messages: the first request's).
calibrate grades every blind attempt in DIR (one reply file each, read as grade reads --reply) and
        prints the label the pass rate supports (at most a third passed: hard; two thirds: medium;
        else easy). --write records calibration { attempts, passes, solver, date, revision, seed,
        review } and that label in the case file (needs 3+ attempts, --solver, and --review when
        none passed).

Options:
  --cases DIR          the cases directory (default: ${CASES_DIR_DEFAULT})
  --profile NAME       only the cases a profile selects (cases/profiles/NAME.yaml)
  --category C         list: only this category
  --json               print JSON on stdout (verify: the whole report; the lines go to stderr)
  --out FILE           verify: also write the report as JSON to FILE
  --allow-unsandboxed  verify: run programs without bwrap when it is unavailable
  --verbose            verify: also print passing cases and warnings
`;

async function list(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    json: { type: 'boolean' },
    ...stringFlags('cases', 'profile', 'category'),
  });
  if (positionals.length > 0) throw new UsageError(`cases list takes no arguments, got "${positionals[0]}"`);
  if (values.category !== undefined && !CATEGORIES.includes(values.category as (typeof CATEGORIES)[number])) {
    throw new UsageError(`--category must be one of ${CATEGORIES.join(', ')}; got "${values.category}"`);
  }
  const dir = casesDirOf(io, values.cases);
  const selection = await loadSelection(io, dir, values.profile);
  if (typeof selection === 'number') return selection;
  const cases = selection.cases.filter((c) => values.category === undefined || c.def.category === values.category);
  io.stdout.write(values.json ? `${JSON.stringify(caseListRows(cases), null, 2)}\n` : caseListText(cases));
  return EXIT.ok;
}

async function verify(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    ...stringFlags('out', 'cases', 'profile'),
    json: { type: 'boolean' },
    'allow-unsandboxed': { type: 'boolean' },
    verbose: { type: 'boolean', short: 'v' },
  });
  const dir = casesDirOf(io, values.cases);
  const selection = await loadSelection(io, dir, values.profile);
  if (typeof selection === 'number') return selection;
  // an unknown id is a config error (exit 2); no sandbox is exit 3 (withRunnerErrors)
  const cases = filterCases(io.cwd, dir, selection.all, selection.cases, positionals);
  const started = performance.now();
  // with --json stdout carries only the report; the lines a person reads go to stderr
  const lines = values.json ? io.stderr : io.stdout;
  // `verify: 12/323 cases · 2 with problems · 14 s`, redrawn in place on a terminal's stderr; nothing elsewhere
  const progress = redrawnLine(io.stderr);
  let done = 0;
  let failed = 0;
  let report;
  try {
    report = await verifyCases(cases, {
      sandbox: lazySandbox(io, { who: 'crucibleforge cases verify', allowUnsandboxed: values['allow-unsandboxed'] ?? false }),
      signal: io.signal,
      onResult: (r) => {
        progress.clear();
        lines.write(verifyResultText(r, values.verbose ?? false));
        done += 1;
        if (!r.ok) failed += 1;
        progress.show(`verify: ${done}/${cases.length} cases${failed ? ` · ${failed} with problems` : ''} · ${Math.round((performance.now() - started) / 1000)} s`);
      },
    });
  } finally {
    progress.clear();
  }
  const seconds = (performance.now() - started) / 1000;
  if (values.verbose && report.results.length > 1) lines.write(slowestCasesLine(report.results));
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const outFile = values.out ? resolve(io.cwd, values.out) : null;
  if (outFile) await writeFile(outFile, json);
  lines.write(`${formatVerifySummary(report)}\n`);
  lines.write(`verified in ${seconds.toFixed(1)} s${outFile ? `; report written to ${outFile}` : ''}\n`);
  if (values.json) io.stdout.write(json);
  return report.problems > 0 ? EXIT.failed : EXIT.ok;
}

const SUBCOMMANDS = ['list', 'verify', 'grade', 'show', 'calibrate'];

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const [sub, ...rest] = args;
    const run = sub === 'list' ? list : sub === 'verify' ? verify : sub === 'grade' ? grade : sub === 'show' ? show : sub === 'calibrate' ? calibrate : undefined;
    if (run) return withRunnerErrors(io, 'cases', () => run(rest, io));
    if (sub === undefined) throw new UsageError('give a subcommand: list, verify, grade, show or calibrate');
    const guess = didYouMean(sub, SUBCOMMANDS);
    throw new UsageError(`unknown subcommand "${inert(sub)}"${guess ? ` (did you mean "${guess}"?)` : ''}; the subcommands are ${SUBCOMMANDS.join(', ')}`);
  },
};
