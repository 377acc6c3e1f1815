import { z } from 'zod';
import { CheckSchema } from './checks';
import { CallMatcherSchema, LanguageSchema, NeedlesSchema, TypeSpecSchema } from './common';

const Label = z.string().min(1).optional().describe('the answer label the prompt asks for (default "Answer")');

export const CompareSchema = z
  .enum(['exact', 'unordered', 'any_of'])
  .describe('exact (default): type-strict equality; unordered: the same elements in any order; any_of: expect is a list of accepted values');

export const CodeTestSchema = z.union([
  z
    .object({
      call: z.string().min(1).describe('an expression in the case language, evaluated in the checker; solution and driver names call into the solution'),
      expect: z.union([z.string(), z.number()]).optional().describe('an expression for the expected value (quote it: "[1, 2]"); required unless check is given'),
      compare: CompareSchema.optional(),
      tolerance: z.number().positive().max(1).optional().describe('floats: |expected - got| ≤ tolerance × max(1, |expected|) (default 1e-9)'),
      check: z
        .string()
        .min(1)
        .optional()
        .describe('instead of expect: an expression for a checker-side function called with the result; it passes by returning true (or nothing) and fails by returning anything else or raising'),
      name: z.string().optional(),
    })
    .strict()
    .refine((t) => (t.expect === undefined) !== (t.check === undefined), { message: 'give exactly one of expect and check' }),
  z
    .object({
      code: z.string().min(1).describe('statements run in the checker; python: assert x, "message"; node: throw new Error(msg) or assert'),
      name: z.string().optional(),
    })
    .strict(),
]);
export type CodeTest = z.infer<typeof CodeTestSchema>;

export const CodeGraderSchema = z
  .object({
    type: z.literal('code'),
    language: LanguageSchema,
    function: z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/).describe('the function or class the reply must define'),
    setup: z
      .string()
      .optional()
      .describe('checker-side helpers (input generators, checks, expected-value code), run in the checker process before the tests; never seen by the solution'),
    driver: z
      .string()
      .optional()
      .describe(
        "input-only helpers loaded into the solution's process after the program (call drivers such as a loop over operations); tests call its top-level names like solution names. Must never contain expected values",
      ),
    tests: z.array(CodeTestSchema).min(1),
    timeout_s: z.number().positive().max(120).optional().describe('wall limit when not complexity-calibrated (default 15)'),
    memory_mb: z.int().min(64).max(8192).optional(),
    complexity: z
      .object({
        multiple: z.number().min(2).max(100).optional().describe('limit = multiple × the reference CPU time (default 10), never under 3 × its wall time'),
        floor_s: z.number().positive().max(60).optional().describe('the limit is never below this (default 1)'),
      })
      .strict()
      .optional()
      .describe('complexity-enforcing: the time limit is calibrated to the host from the reference solution'),
  })
  .strict();

export const NumberGraderSchema = z
  .object({
    type: z.literal('number'),
    label: Label,
    tolerance: z.number().min(0).optional().describe('absolute tolerance (default 0: exact, fractions compared exactly)'),
  })
  .strict();

export const ExactGraderSchema = z
  .object({
    type: z.literal('exact'),
    label: Label,
    alternatives: z.array(z.string()).optional().describe('other accepted answers'),
    case_sensitive: z.boolean().optional(),
  })
  .strict();

export const ChoiceGraderSchema = z
  .object({ type: z.literal('choice'), label: Label, options: z.array(z.string().min(1)).min(2) })
  .strict();

export const ContainsGraderSchema = NeedlesSchema.extend({
  type: z.literal('contains'),
  scope: z.enum(['all', 'answer']).optional().describe('all: the whole reply (default); answer: the text after the label'),
  label: Label,
}).strict();

export const RegexGraderSchema = z
  .object({
    type: z.literal('regex'),
    pattern: z.string().min(1),
    flags: z.string().optional(),
    forbid: z.array(z.string()).optional().describe('patterns that must not match'),
    scope: z.enum(['all', 'answer']).optional(),
    label: Label,
  })
  .strict();

export const JsonGraderSchema = z
  .object({
    type: z.literal('json'),
    keys: z.record(z.string(), TypeSpecSchema).describe('top-level key → type'),
    exact_keys: z.boolean().optional().describe('no other keys allowed (default true)'),
    values: z.record(z.string(), z.unknown()).optional().describe('path → exact expected value'),
    whole_reply: z.boolean().optional().describe('nothing but the JSON (a code fence allowed)'),
  })
  .strict();

export const ChecksGraderSchema = z.object({ type: z.literal('checks'), checks: z.array(CheckSchema).min(1) }).strict();

export const AssignmentsGraderSchema = z
  .object({
    type: z.literal('assignments'),
    label: Label,
    values: z.array(z.string()).optional().describe('the candidate values (default: those in reference.answer)'),
  })
  .strict()
  .describe('reference.answer is a key → value map; each key must be given its value (per-element score)');

export const ToolCallsGraderSchema = z
  .object({
    type: z.literal('tool_calls'),
    calls: z.array(CallMatcherSchema).optional().describe('expected calls over the whole transcript, each by a distinct call'),
    in_one_turn: z.boolean().optional().describe('all expected calls in the same assistant turn'),
    ordered: z.boolean().optional().describe('expected calls happen in this order'),
    max_calls: z.int().min(0).optional().describe('at most this many calls in total'),
    forbid: z.array(CallMatcherSchema).optional().describe('calls that must never happen'),
    no_calls: z.boolean().optional().describe('the model must not call any tool'),
    unknown_tools: z
      .enum(['forbid', 'allow'])
      .optional()
      .describe('a call to a tool that is not offered (a fabricated tool) fails (forbid, the default) or is ignored (allow)'),
    answer: NeedlesSchema.optional().describe('the final assistant text'),
  })
  .strict();

export const JudgeGraderSchema = z
  .object({ type: z.literal('judge'), focus: z.string().optional().describe('extra guidance shown to the judge') })
  .strict();

const part = <K extends string, T extends z.ZodRawShape>(kind: K, shape: T) =>
  z.object({ name: z.string().min(1), kind: z.literal(kind), ...shape }).strict();

export const AgentPartSchema = z.discriminatedUnion('kind', [
  part('json', {
    keys: z.record(z.string(), TypeSpecSchema),
    exact_keys: z.boolean().optional(),
    values: z.record(z.string(), z.unknown()).optional(),
  }),
  part('checks', { checks: z.array(CheckSchema).min(1) }),
  part('contains', NeedlesSchema.shape),
  part('acknowledges', {
    any: z.array(z.string()).min(1).describe('phrases that admit a limit (any one, word-boundary); plain admissions such as "could not", "unable" or "no network access" are always accepted too'),
    forbid_patterns: z.array(z.string()).optional().describe('JS regexes that betray invented data'),
  }),
  part('concise', {
    max_ratio: z.number().positive().describe('reply characters ÷ prompt characters at most; above it the verdict is VERBOSE'),
  }),
]);
export type AgentPart = z.infer<typeof AgentPartSchema>;

export const AgentGraderSchema = z
  .object({ type: z.literal('agent'), parts: z.array(AgentPartSchema).min(1) })
  .strict()
  .describe('named sub-checks, all must pass');

export const GraderSchema = z.discriminatedUnion('type', [
  CodeGraderSchema,
  NumberGraderSchema,
  ExactGraderSchema,
  ChoiceGraderSchema,
  ContainsGraderSchema,
  RegexGraderSchema,
  JsonGraderSchema,
  ChecksGraderSchema,
  AssignmentsGraderSchema,
  ToolCallsGraderSchema,
  JudgeGraderSchema,
  AgentGraderSchema,
]);
export type Grader = z.infer<typeof GraderSchema>;
export type GraderType = Grader['type'];
export type GraderOf<T extends GraderType> = Extract<Grader, { type: T }>;
