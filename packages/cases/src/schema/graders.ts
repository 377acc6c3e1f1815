import { z } from 'zod';
import { CheckSchema } from './checks';
import { CallMatcherSchema, CountSchema, LanguageSchema, NeedlesSchema, TypeSpecSchema } from './common';

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

export const NormaliserSchema = z
  .enum(['fold', 'code', 'time', 'number', 'letter', 'exact'])
  .describe('fold: case and punctuation ignored, clock times written one way (names, words); code: only letters and digits count (7Q-8814 = 7q 8814); time: a clock time (9:27 = 09:27 = 9.27 am); number: a number (1,234 = 1234); letter: one capital letter (lists: other tokens such as question numbers are noise); exact: case-sensitive');

export const ExactGraderSchema = z
  .object({
    type: z.literal('exact'),
    label: Label,
    kind: z
      .enum(['text', 'list', 'set'])
      .optional()
      .describe('text: one short answer (default); list: items in order; set: items in any order (items separated by commas, "and", "&", line breaks; spaces too for codes, times, numbers)'),
    normaliser: NormaliserSchema.optional().describe('how the answer (each item of a list or set) is compared (default fold)'),
    or: z.boolean().optional().describe('list / set: "or" joins items too (only where the prompt itself words the answer that way); otherwise "or" is a hedge and fails'),
    alternatives: z.array(z.string()).optional().describe('other accepted answers'),
    case_sensitive: z.boolean().optional().describe('same as normaliser: exact'),
  })
  .strict();

export const ChoiceGraderSchema = z
  .object({ type: z.literal('choice'), label: Label, options: z.array(z.string().min(1)).min(2) })
  .strict();

/** Figures a reply states must be given somewhere (prompt, tool results, call arguments) or be allowed. */
export const GroundedSchema = z
  .object({
    units: z
      .array(z.string().min(1))
      .optional()
      .describe('only figures with one of these units count ("%", "ms", "GB"; default: every number)'),
    allow: z.array(z.union([z.string(), z.number()])).optional().describe('figures a reply may state although nothing gives them (computed ones)'),
  })
  .strict();

/** A typed final answer inside a tool or agent case: read as the number and exact graders read theirs. */
export const FinalAnswerSchema = z
  .object({
    label: Label,
    kind: z.enum(['number', 'text', 'list', 'set']).describe('number: as the number grader; text / list / set: as the exact grader'),
    expected: z.union([z.string(), z.number()]).describe('the right answer'),
    alternatives: z.array(z.string()).optional(),
    normaliser: NormaliserSchema.optional(),
    or: z.boolean().optional(),
    tolerance: z.number().min(0).optional().describe('number: absolute tolerance (default 0)'),
  })
  .strict()
  .describe('the final answer the prompt asks for (e.g. a closing `Line: <number>`), typed');
export type FinalAnswerSpec = z.infer<typeof FinalAnswerSchema>;

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
    answer: NeedlesSchema.optional().describe('needles on the final assistant text (the text of the last turn; without a tool_script, the text sent with the calls)'),
    final_answer: FinalAnswerSchema.optional(),
    answer_checks: z.array(CheckSchema).min(1).optional().describe('instruction checks on the final assistant text (its length, sentences, order, format)'),
    grounded: GroundedSchema.optional().describe('figures in the final text must come from the prompt, a tool result or the arguments the model sent (an invented result fails)'),
    counts: z
      .record(z.string(), CountSchema)
      .optional()
      .describe('tool name → how many calls of it the whole transcript may hold ("post one comment": {comment_on_pr: {exactly: 1}})'),
  })
  .strict();

export const JudgeGraderSchema = z
  .object({
    type: z.literal('judge'),
    focus: z.string().optional().describe('extra guidance shown to the judge'),
    checks: z
      .array(CheckSchema)
      .min(1)
      .optional()
      .describe('the format the prompt states (one paragraph, at most N words): checked mechanically first; a reply that breaks one fails without a judge call'),
  })
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
  part('answer', { answer: FinalAnswerSchema }),
  part('grounded', GroundedSchema.shape),
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
