import { systemClock, type Clock } from '@crucibleforge/core';
import type { Sandbox } from '@crucibleforge/sandbox';
import { grade } from '../grade';
import { fillCase, materializeCase, verifySeeds, type MaterializedCase } from '../materialize';
import { referenceTranscript } from '../reference';
import type { LoadedCase } from '../schema/case';
import { verifyCode } from './code';
import { haystackProblems } from './haystack';
import { checkVerifyProgram } from './program';
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

type SeedResult = Pick<CaseVerifyResult, 'problems' | 'warnings' | 'executed' | 'rederived' | 'negative_controls' | 'haystacks' | 'calibrations'>;

/** Checks one seed of one case. */
async function verifySeed(loaded: LoadedCase, seed: number | null, getSandbox: SandboxGetter, signal?: AbortSignal): Promise<SeedResult> {
  const r: SeedResult = { problems: [], warnings: [], executed: 0, rederived: 0, negative_controls: 0, haystacks: 0, calibrations: [] };
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
  if (g.type === 'code') {
    const out = await verifyCode(c, await getSandbox(), signal);
    out.problems.forEach(problem);
    out.warnings.forEach((w) => r.warnings.push(at + w));
    r.executed += out.executed;
    r.negative_controls += out.negative_controls;
    if (out.calibration) r.calibrations.push(out.calibration);
  } else if (g.type === 'judge') {
    if (typeof c.reference.answer !== 'string' || c.reference.answer.trim().length < 20) problem('judged cases need a reference answer (at least a sentence)');
    if (!c.reference.facts?.length) problem('judged cases need reference.facts');
  } else {
    const outcome = await grade(c, referenceTranscript(c));
    if (outcome.status !== 'pass') problem(`the reference fails its own grader: ${outcome.reason}`);
  }
  if (g.type === 'tool_calls') referenceCallProblems(c).forEach(problem);
  for (const [field, mustPass] of [['wrong_replies', false], ['right_replies', true]] as const) {
    for (const [i, raw] of (d.verify?.[field] ?? []).entries()) {
      if (g.type === 'code' || g.type === 'judge') {
        problem(`${field} do not apply to ${g.type} cases`);
        break;
      }
      let filled: typeof raw;
      try {
        // the same variant as the prompt and reference: a literal {{x}} would fail for the wrong reason
        filled = fillCase(c, raw, `verify.${field}[${i}]`);
      } catch (error) {
        problem(message(error));
        continue;
      }
      const outcome = await grade(c, referenceTranscript(c, { reply: filled.reply, calls: filled.calls }));
      if (mustPass) {
        if (outcome.status !== 'pass') problem(`right reply ${i + 1} (${filled.why}) FAILS the grader: ${outcome.reason}`);
      } else if (outcome.status === 'pass') problem(`wrong reply ${i + 1} (${filled.why}) PASSES the grader`);
      else r.negative_controls++;
    }
  }
  const needsProgram = d.category === 'math' || (d.category === 'reasoning' && ANSWER_GRADERS.has(g.type));
  if (d.verify?.program) {
    const sandbox = await getSandbox();
    try {
      const p = await checkVerifyProgram(c, sandbox);
      if (p) problem(p);
      else r.rederived++;
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
  const problems = perSeed.flatMap((x) => x.problems);
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
