import type { Category, Difficulty } from '@crucibleforge/core';
import { z } from 'zod';
import { HaystackSchema, LanguageSchema, ParamSpecSchema, ProgramSchema, ToolSchema, ToolScriptSchema } from './common';
import { GraderSchema } from './graders';

export const CategorySchema = z.enum(['coding', 'math', 'reasoning', 'tooluse', 'injection', 'instruct', 'longctx', 'prose', 'agent']);
export const DifficultySchema = z.enum(['easy', 'medium', 'hard']);
// Compile-time guard: the enums above are exactly core's Category and Difficulty.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const categoryMatchesCore: Same<z.infer<typeof CategorySchema>, Category> = true;
const difficultyMatchesCore: Same<z.infer<typeof DifficultySchema>, Difficulty> = true;

const RefCallSchema = z
  .object({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()) })
  .strict();
export type RefCall = z.infer<typeof RefCallSchema>;

export const ReferenceSchema = z
  .object({
    answer: z
      .union([z.string(), z.number(), z.record(z.string(), z.string())])
      .optional()
      .describe('the correct final answer (number, exact, choice, judge; a key → value map for assignments)'),
    solution: z.string().optional().describe('code: a correct solution, run by verify'),
    reply: z.string().optional().describe('a complete reply that must pass the grader (instruct, agent, json, final tool answers)'),
    calls: z
      .array(z.array(RefCallSchema))
      .optional()
      .describe('tool_calls: the calls a correct model makes, one list per assistant turn'),
    facts: z.array(z.string().min(1)).optional().describe('judge: facts a correct answer must contain'),
  })
  .strict();
export type Reference = z.infer<typeof ReferenceSchema>;

export const WrongSolutionSchema = z
  .object({
    why: z.string().min(1).describe('what is wrong with it'),
    code: z.string().min(1),
    too_slow: z.boolean().optional().describe('correct but too slow: it must fail by TIMEOUT'),
  })
  .strict();

export const WrongReplySchema = z
  .object({
    why: z.string().min(1).describe('the style (right replies) or the failure class (wrong replies), then a short explanation'),
    reply: z.string().optional().describe('the final text as a model sends it (coding: a reply with the code block)'),
    calls: z.array(z.array(RefCallSchema)).optional().describe('tool cases: the calls made, one list per assistant turn'),
    seed: z.int().optional().describe("seeded cases: the reply was written for this seed's variant; verify checks it on that seed only"),
  })
  .strict();

export const VerifySpecSchema = z
  .object({
    seeds: z.array(z.int()).min(1).optional().describe('seeded cases: the seeds verify materialises (default [1, 2, 3])'),
    program: z.string().min(1).optional().describe('a brute-force / exhaustive program run in the sandbox'),
    language: LanguageSchema.optional().describe('language of program (default python)'),
    expect: z
      .enum(['answer', 'unique_solution'])
      .optional()
      .describe('answer: prints the answer; unique_solution: prints {"solutions": [...]} of every solution'),
    wrong_solutions: z.array(WrongSolutionSchema).optional().describe('code: mutants of the reference that must FAIL (at least 3: a boundary, a tie-break, a missed rule)'),
    wrong_replies: z.array(WrongReplySchema).optional().describe('the conformance corpus: plausible near misses that must FAIL the grader (at least 3 per auto-graded case)'),
    right_replies: z
      .array(WrongReplySchema)
      .optional()
      .describe('the conformance corpus: correct replies in distinct realistic styles that must PASS the grader (at least 3 per auto-graded case)'),
  })
  .strict();
export type VerifySpec = z.infer<typeof VerifySpecSchema>;

/**
 * Blind calibration: fresh solvers that saw exactly the messages a model is sent (no case file, reference or
 * tools) attempted the case; their replies were graded by `cases grade`. The label follows the pass rate
 * (`difficultyFromEvidence`); the revision binds the evidence to the question it was gathered on.
 */
export const BlindCalibrationSchema = z
  .object({
    attempts: z.int().min(3).describe('blind attempts, each by a fresh solver (at least 3)'),
    passes: z.int().min(0).describe('attempts that `cases grade` passed'),
    solver: z.string().min(3).describe('who attempted: model class and conditions, e.g. "frontier chat model, blind, no tools"'),
    date: z.iso.date().describe('when the attempts were graded (YYYY-MM-DD)'),
    revision: z
      .string()
      .regex(/^[0-9a-f]{12}$/)
      .describe('the case revision the attempts answered; a question edit makes the evidence stale'),
    seed: z.int().min(0).optional().describe('the run seed the attempts answered (seeded cases; default 1)'),
    review: z
      .string()
      .min(10)
      .optional()
      .describe('required when no attempt passed: what the hand re-check confirmed (reference, uniqueness, one reading of the wording)'),
  })
  .strict();
export type BlindCalibration = z.infer<typeof BlindCalibrationSchema>;

export const CaseSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z]+-[a-z0-9]+(?:-[a-z0-9]+)*$/, 'id must be <category>-<words>, lowercase, digits and dashes')
      .describe('stable id: the category, a dash, then a slug (coding-lru-peek)'),
    extends: z
      .string()
      .optional()
      .describe("take every field not given here from this case (a family's base, by id; a base may extend another, no cycles): params and verify merge one level deep, id and calibration are never inherited"),
    title: z.string().min(3),
    category: CategorySchema,
    difficulty: DifficultySchema,
    tags: z.array(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/)).optional(),
    why_hard: z.string().min(10).optional().describe('required for hard cases: what makes it hard by construction'),
    calibration: BlindCalibrationSchema.optional().describe('blind attempts and passes; a hard label needs it (hard: at most a third passed)'),
    system: z.string().optional(),
    prompt: z.string().min(1).optional().describe('the user message (or use turns)'),
    turns: z.array(z.string().min(1)).min(1).optional().describe('user messages of a multi-turn case, in order'),
    tools: z.array(ToolSchema).optional(),
    tool_script: ToolScriptSchema.optional(),
    max_tokens: z.int().min(16).max(65536),
    min_context: z.int().min(512).optional().describe('skip (not fail) on models with a smaller context'),
    temperature: z.number().min(0).max(2).optional().describe('default 0'),
    params: z
      .record(z.string().regex(/^[a-z_][a-z0-9_]*$/), ParamSpecSchema)
      .optional()
      .describe('seeded variant: parameters drawn from the seed'),
    derive: ProgramSchema.optional().describe('seeded variant: reads {seed, params} JSON, prints {answer, vars}'),
    haystack: HaystackSchema.optional().describe('long context: the {{haystack}} placeholder is filled with it'),
    grader: GraderSchema,
    reference: ReferenceSchema,
    verify: VerifySpecSchema.optional(),
    notes: z.string().optional().describe('author notes, never shown to a model'),
  })
  .strict();

export type CaseDef = z.infer<typeof CaseSchema>;

/** A case as the loader returns it: the definition plus where it came from and its revision. */
export interface LoadedCase {
  def: CaseDef;
  /** Path relative to the cases dir, with forward slashes. */
  file: string;
  revision: string;
  seeded: boolean;
  /** The base whose derive and verify programs this case runs unchanged (it `extends` it and gives neither). */
  programsOf?: string;
}
void categoryMatchesCore;
void difficultyMatchesCore;
