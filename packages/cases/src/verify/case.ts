import { systemClock, type Clock } from '@crucibleforge/core';
import type { Sandbox } from '@crucibleforge/sandbox';
import { runChecks } from '../checks/library';
import { grade } from '../grade';
import { materializeCase, verifySeeds, type MaterializedCase } from '../materialize';
import { referenceTranscript } from '../reference';
import type { LoadedCase } from '../schema/case';
import { verifyCode } from './code';
import { haystackProblems } from './haystack';
import { corpusProblems, replyVerdicts } from './corpus';
import { answersEqual, checkVerifyProgram } from './program';
import type { CaseVerifyResult } from './report';
import { schemaProblem } from './tool-schema';

export type SandboxGetter = () => Promise<Sandbox>;

const ANSWER_GRADERS = new Set(['number', 'exact', 'choice', 'assignments']);

/** Whether verifying this case runs anything in the sandbox. */
export function needsSandbox(c: LoadedCase): boolean {
  const d = c.def;
  return d.grader.type === 'code' || d.derive !== undefined || d.verify?.program !== undefined;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function referenceCallProblems(c: MaterializedCase): string[] {
  const problems: string[] = [];
  const tools = new Map(c.tools.map((t) => [t.function.name, t.function.parameters]));
  (c.reference.calls ?? []).forEach((turn, t) =>
    turn.forEach((call, i) => {
      if (!tools.has(call.name)) problems.push(`reference.calls[${t}][${i}]: "${call.name}" is not a declared tool`);
      else {
        const p = schemaProblem(call.arguments, tools.get(call.name));
        if (p) problems.push(`reference.calls[${t}][${i}] (${call.name}): ${p}`);
      }
    }),
  );
  return problems;
}

type SeedResult = Pick<CaseVerifyResult, 'problems' | 'warnings' | 'executed' | 'rederived' | 'negative_controls' | 'haystacks' | 'calibrations'> & { derived: unknown[] };

/** Checks one seed of one case. */
async function verifySeed(loaded: LoadedCase, seed: number | null, getSandbox: SandboxGetter, signal?: AbortSignal): Promise<SeedResult> {
  const r: SeedResult = { problems: [], warnings: [], executed: 0, rederived: 0, negative_controls: 0, haystacks: 0, calibrations: [], derived: [] };
  await checkSeed(loaded, seed, getSandbox, r, signal);
  return r;
}

async function checkSeed(loaded: LoadedCase, seed: number | null, getSandbox: SandboxGetter, r: SeedResult, signal?: AbortSignal): Promise<void> {
  const d = loaded.def;
  const at = seed === null ? '' : `seed ${seed}: `;
  const problem = (m: string) => r.problems.push(at + m);
  let c: MaterializedCase;
  const derivingSandbox = d.derive ? await getSandbox() : undefined;
  try {
    c = await materializeCase(d, seed, derivingSandbox ? { sandbox: derivingSandbox } : {});
  } catch (error) {
    problem(message(error));
    return;
  }
  if (c.haystack) {
    haystackProblems(c).forEach(problem);
    r.haystacks++;
  }
  const g = c.grader;
  let codeLimit: number | undefined;
  if (g.type === 'code') {
    const out = await verifyCode(c, await getSandbox(), signal);
    codeLimit = out.calibration?.limit_ms;
    out.problems.forEach(problem);
    out.warnings.forEach((w) => r.warnings.push(at + w));
    r.executed += out.executed;
    r.negative_controls += out.negative_controls;
    if (out.calibration) r.calibrations.push(out.calibration);
  } else if (g.type === 'judge') {
    if (typeof c.reference.answer !== 'string' || c.reference.answer.trim().length < 20) problem('judged cases need a reference answer (at least a sentence)');
    if (!c.reference.facts?.length) problem('judged cases need reference.facts');
    if (g.checks && typeof c.reference.answer === 'string') {
      const r = runChecks(g.checks, c.reference.answer);
      if (r.firstFailure) problem(`the reference answer breaks the prompt's format: ${r.firstFailure}`);
    }
  } else {
    const outcome = await grade(c, referenceTranscript(c));
    if (outcome.status !== 'pass') problem(`the reference fails its own grader: ${outcome.reason}`);
  }
  if (g.type === 'tool_calls') referenceCallProblems(c).forEach(problem);
  const replies = await replyVerdicts(c, g.type === 'code' ? getSandbox : null, codeLimit, signal);
  replies.problems.forEach(problem);
  r.negative_controls += replies.negative_controls;
  const needsProgram = d.category === 'math' || (d.category === 'reasoning' && ANSWER_GRADERS.has(g.type));
  if (d.verify?.program) {
    const sandbox = await getSandbox();
    try {
      const p = await checkVerifyProgram(c, sandbox);
      if (p.problem) problem(p.problem);
      else {
        r.rederived++;
        r.derived.push(p.derived);
      }
    } catch (error) {
      problem(`verify program: ${message(error)}`);
    }
  } else if (needsProgram) {
    problem(`${d.category} cases need verify.program (a brute-force or exhaustive re-derivation)`);
  }
  if (d.category === 'reasoning' && ['exact', 'assignments'].includes(g.type) && d.verify?.program && d.verify.expect !== 'unique_solution') {
    r.warnings.push(`${at}logic puzzles should prove uniqueness (verify.expect: unique_solution)`);
  }
}

/**
 * A seeded re-derivation proves something only when it runs on at least two draws and the draws do not
 * all give the same answer (a program that prints a constant would pass every seed). An instance that runs
 * its base's programs unchanged may verify one seed (its calibrated draw): the base, itself in the set,
 * proves the programs on two.
 */
function seedVariation(loaded: LoadedCase, seeds: (number | null)[], perSeed: SeedResult[]): string[] {
  if (!loaded.seeded || !loaded.def.verify?.program) return [];
  if (seeds.length < 2 && loaded.programsOf !== undefined) return [];
  if (seeds.length < 2) return [`a seeded re-derivation runs on at least 2 seeds (verify.seeds has ${seeds.length})`];
  const derived = perSeed.flatMap((x) => x.derived);
  if (derived.length === seeds.length && derived.every((a) => answersEqual(a, derived[0]))) {
    return [`every seed re-derives the same answer (${JSON.stringify(derived[0]).slice(0, 40)}): the draws must vary it, or the program does not compute`];
  }
  return [];
}

/** A sandbox that adds each run's wall time to `add` (a case's own sandbox time, to find the slow ones). */
function metered(sandbox: Sandbox, add: (ms: number) => void): Sandbox {
  return {
    sandboxed: sandbox.sandboxed,
    run: async (request) => {
      const result = await sandbox.run(request);
      add(result.wall_ms);
      return result;
    },
    runPair: async (request) => {
      const result = await sandbox.runPair(request);
      add(result.wall_ms);
      return result;
    },
  };
}

/**
 * Verifies one case over its seeds (the seeds at the same time: the sandbox pool bounds the processes).
 * Sandbox failures (infrastructure) propagate; everything else is a problem, reported in seed order.
 */
export async function verifyCase(loaded: LoadedCase, getSandbox: SandboxGetter, signal?: AbortSignal, clock: Clock = systemClock): Promise<CaseVerifyResult> {
  const started = clock.now();
  const seeds = loaded.seeded ? verifySeeds(loaded.def) : [null];
  let sandboxMs = 0;
  let meteredSandbox: Promise<Sandbox> | null = null;
  const getMetered = (): Promise<Sandbox> => (meteredSandbox ??= getSandbox().then((s) => metered(s, (ms) => (sandboxMs += ms))));
  const perSeed = await Promise.all(seeds.map((seed) => verifySeed(loaded, seed, getMetered, signal)));
  const sum = (k: 'executed' | 'rederived' | 'negative_controls' | 'haystacks') => perSeed.reduce((a, x) => a + x[k], 0);
  const problems = [...corpusProblems(loaded.def, loaded.seeded), ...perSeed.flatMap((x) => x.problems), ...seedVariation(loaded, seeds, perSeed)];
  return {
    id: loaded.def.id,
    file: loaded.file,
    category: loaded.def.category,
    seeded: loaded.seeded,
    seeds,
    ok: problems.length === 0,
    problems,
    warnings: perSeed.flatMap((x) => x.warnings),
    executed: sum('executed'),
    rederived: sum('rederived'),
    negative_controls: sum('negative_controls'),
    haystacks: sum('haystacks'),
    calibrations: perSeed.flatMap((x) => x.calibrations),
    elapsed_ms: Math.round(clock.now() - started),
    sandbox_ms: sandboxMs,
  };
}
