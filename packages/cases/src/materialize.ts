import type { ToolDefinition } from '@crucibleforge/core';
import type { Sandbox } from '@crucibleforge/sandbox';
import { casesError } from './errors';
import { buildHaystack, estimateTokens, type Haystack } from './haystack/build';
import { drawParams } from './prng';
import { caseRevision } from './revision';
import type { CaseDef, Reference } from './schema/case';
import type { Tool } from './schema/common';
import { fillTemplate } from './template';
import type { ConcreteCase } from './types';

export const DEFAULT_VERIFY_SEEDS = [1, 2, 3];
export const DERIVE_TIMEOUT_MS = 20_000;

/** A case is seeded when it declares params or a derive program. */
export function isSeeded(def: CaseDef): boolean {
  return def.params !== undefined || def.derive !== undefined;
}

/** The seeds `cases verify` materialises for a seeded case. */
export function verifySeeds(def: CaseDef): number[] {
  return def.verify?.seeds ?? DEFAULT_VERIFY_SEEDS;
}

export function toToolDefinition(tool: Tool): ToolDefinition {
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.parameters ?? { type: 'object', properties: {} },
    },
  };
}

export interface DeriveOutput {
  answer?: unknown;
  vars: Record<string, unknown>;
}

/** Runs the case's derive program in the sandbox with `{seed, params}` on stdin; throws CASES_DERIVE_FAILED. */
export async function runDerive(def: CaseDef, seed: number, params: Record<string, unknown>, sandbox: Sandbox): Promise<DeriveOutput> {
  const derive = def.derive!;
  const result = await sandbox.run({
    language: derive.language ?? 'python',
    source: derive.program,
    stdin: JSON.stringify({ seed, params }),
    timeoutMs: DERIVE_TIMEOUT_MS,
  });
  const where = `${def.id}: derive (seed ${seed})`;
  if (result.status !== 'ok') {
    const err = result.stderr.trim().split('\n').pop() ?? '';
    throw casesError('CASES_DERIVE_FAILED', `${where} ${result.status}${err ? `: ${err}` : ''}`, { details: { stderr: result.stderr.slice(-2000) } });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout.trim().split('\n').pop() ?? '');
  } catch {
    throw casesError('CASES_DERIVE_FAILED', `${where}: the last line of output is not JSON: ${result.stdout.trim().slice(-120)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw casesError('CASES_DERIVE_FAILED', `${where}: must print a JSON object {"answer": …, "vars": {…}}`);
  }
  const obj = parsed as Record<string, unknown>;
  const vars = obj.vars ?? {};
  if (vars === null || typeof vars !== 'object' || Array.isArray(vars)) throw casesError('CASES_DERIVE_FAILED', `${where}: "vars" must be an object`);
  return { ...('answer' in obj ? { answer: obj.answer } : {}), vars: vars as Record<string, unknown> };
}

const deriveCache = new WeakMap<Sandbox, Map<string, Promise<DeriveOutput>>>();

/**
 * runDerive, once per (sandbox, case, revision, seed): a derive program is a pure function of its seed and
 * params, so materialising the same variant again (another model, a re-grade) reuses the first result.
 * A failure is not cached.
 */
export function cachedDerive(def: CaseDef, seed: number, params: Record<string, unknown>, sandbox: Sandbox): Promise<DeriveOutput> {
  let perSandbox = deriveCache.get(sandbox);
  if (!perSandbox) deriveCache.set(sandbox, (perSandbox = new Map()));
  const key = `${def.id}@${caseRevision(def)}#${seed}`;
  let found = perSandbox.get(key);
  if (!found) {
    found = runDerive(def, seed, params, sandbox);
    found.catch(() => perSandbox!.delete(key));
    perSandbox.set(key, found);
  }
  return found;
}

export interface MaterializeOptions {
  /** Needed for cases with a derive program. */
  sandbox?: Sandbox;
  /** The reply budget to run it with (a profile's per-category override; default the case's own max_tokens). */
  maxTokens?: number;
}

export interface MaterializedCase extends ConcreteCase {
  /** The built haystack of a long-context case (null otherwise). */
  haystack: Haystack | null;
  /**
   * The placeholder values of this variant (params, derived vars, seed, answer, haystack) that filled the
   * prompt, grader and reference; null when the case has no placeholders. Fill anything else that belongs
   * to the same variant (verify's wrong replies and solutions) with `fillCase`.
   */
  scope: Record<string, unknown> | null;
}

/** Fills `{{placeholders}}` in `value` with the case variant's values (as its prompt was); unchanged when it has none. */
export function fillCase<T>(c: Pick<MaterializedCase, 'scope'>, value: T, where: string): T {
  return c.scope === null || value === undefined ? value : fillTemplate(value, c.scope, where);
}

/**
 * Turns a case definition into the concrete case one seed gives: params drawn, derive run (in the
 * sandbox), `{{placeholders}}` filled in prompt, system, tools, script, grader and reference, haystack built.
 * Unseeded cases ignore `seed` (recorded as null). A seeded case with seed null uses its first verify seed.
 */
export async function materializeCase(def: CaseDef, seed: number | null, options: MaterializeOptions = {}): Promise<MaterializedCase> {
  const seeded = isSeeded(def);
  const used = seeded ? (seed ?? verifySeeds(def)[0]!) : null;
  const params: Record<string, unknown> = seeded ? drawParams(def.params, used!) : {};
  let vars: Record<string, unknown> = {};
  let derivedAnswer: unknown;
  if (def.derive) {
    if (!options.sandbox) throw casesError('CASES_SANDBOX_REQUIRED', `${def.id}: the derive program needs a sandbox`);
    const out = await cachedDerive(def, used!, params, options.sandbox);
    vars = { ...out.vars };
    derivedAnswer = out.answer;
  }
  const scope: Record<string, unknown> = { ...params, ...vars, seed: used };
  if (derivedAnswer !== undefined) scope.answer = derivedAnswer;

  let haystack: Haystack | null = null;
  if (def.haystack) {
    const spec = fillTemplate(def.haystack, scope, 'haystack');
    haystack = buildHaystack(spec, seeded ? used! : (def.haystack.seed ?? 0));
    scope.haystack = haystack.text;
  }
  const templated = seeded || haystack !== null;
  const fill = <T>(value: T, where: string): T => (templated && value !== undefined ? fillTemplate(value, scope, where) : value);

  let reference: Reference = fill(def.reference, 'reference');
  if (reference.answer === undefined && derivedAnswer !== undefined) {
    reference = { ...reference, answer: derivedAnswer as Reference['answer'] };
  }
  const system = def.system === undefined ? null : fill(def.system, 'system');
  const turns = def.turns ? fill(def.turns, 'turns') : [fill(def.prompt ?? '', 'prompt')];
  const tools = (def.tools ? fill(def.tools, 'tools') : []).map(toToolDefinition);
  const promptTokens = estimateTokens([system ?? '', ...turns, tools.length ? JSON.stringify(tools) : ''].join('\n'));
  const maxTokens = options.maxTokens ?? def.max_tokens;
  return {
    id: def.id,
    revision: caseRevision(def),
    title: def.title,
    category: def.category,
    difficulty: def.difficulty,
    tags: def.tags ?? [],
    seed: used,
    system,
    turns,
    tools,
    tool_script: def.tool_script ? fill(def.tool_script, 'tool_script') : null,
    max_tokens: maxTokens,
    // the one place min_context is computed: declared, else a haystack case's prompt plus its answer budget
    min_context: def.min_context ?? (haystack ? promptTokens + maxTokens : null),
    temperature: def.temperature ?? 0,
    grader: fill(def.grader, 'grader'),
    reference,
    params,
    vars,
    prompt_tokens: promptTokens,
    def,
    haystack,
    scope: templated ? scope : null,
  };
}
