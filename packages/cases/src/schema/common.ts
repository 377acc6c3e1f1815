import { z } from 'zod';

/** A count constraint: `exactly`, or a `min`/`max` range (at least one of the three). */
export const CountSchema = z
  .object({
    exactly: z.int().min(0).optional().describe('the count must equal this'),
    min: z.int().min(0).optional().describe('the count must be at least this'),
    max: z.int().min(0).optional().describe('the count must be at most this'),
  })
  .strict();
export type Count = z.infer<typeof CountSchema>;

export const LanguageSchema = z.enum(['python', 'node']).describe('python (CPython 3) or node (JavaScript, CommonJS-style)');
export type Language = z.infer<typeof LanguageSchema>;

export type TypeSpec =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'null'
  | 'array'
  | 'object'
  | 'any'
  | { array: TypeSpec }
  | { object: Record<string, TypeSpec> }
  | { enum: (string | number | boolean)[] }
  | { nullable: TypeSpec };

/** The expected JSON type of a value. A boolean is never an integer; an integer is a number. */
export const TypeSpecSchema: z.ZodType<TypeSpec> = z.lazy(() =>
  z.union([
    z.enum(['string', 'integer', 'number', 'boolean', 'null', 'array', 'object', 'any']),
    z.object({ array: TypeSpecSchema }).strict().describe('an array whose every item has this type'),
    z.object({ object: z.record(z.string(), TypeSpecSchema) }).strict().describe('an object with exactly these keys'),
    z.object({ enum: z.array(z.union([z.string(), z.number(), z.boolean()])).min(1) }).strict(),
    z.object({ nullable: TypeSpecSchema }).strict(),
  ]),
);

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

type ScalarValue = string | number | boolean | null;

/** A typed matcher for one tool-call argument (see ArgMatcherSchema). */
export type ArgMatcher =
  | ScalarValue
  | { equals: unknown; case_sensitive?: boolean | undefined }
  | { number: number; tolerance?: number | undefined }
  | { enum: ScalarValue[]; case_sensitive?: boolean | undefined }
  | { regex: string; flags?: string | undefined }
  | { contains: string }
  | { date: string }
  | { datetime: string }
  | { set: unknown[] }
  | { length: number }
  | { sentences: Count }
  | { words: Count }
  | { lines: Count }
  | { all: ArgMatcher[] }
  | { present: true }
  | { absent: true }
  | { some: ArgMatcher }
  | { every: ArgMatcher }
  | { fields: Record<string, ArgMatcher> };

/**
 * A typed matcher for one tool-call argument. A bare scalar is shorthand for `{ equals: value }`.
 * Strings compare trimmed and case-insensitively unless `case_sensitive`; numbers compare as numbers
 * (a string never matches a number matcher, and 50 never matches 150). `some` / `every` match the items
 * of an array; `fields` matches an object by paths (so `{some: {fields: {sku: A-15}}}` finds an item).
 */
export const ArgMatcherSchema: z.ZodType<ArgMatcher> = z.lazy(() =>
  z.union([
    Scalar,
    z.object({ equals: z.unknown(), case_sensitive: z.boolean().optional() }).strict().describe('deep JSON equality'),
    z.object({ number: z.number(), tolerance: z.number().min(0).optional() }).strict().describe('a JSON number within tolerance (default 0)'),
    z.object({ enum: z.array(Scalar).min(1), case_sensitive: z.boolean().optional() }).strict().describe('one of these values'),
    z.object({ regex: z.string(), flags: z.string().optional() }).strict().describe('a string matching this JS regex (search)'),
    z.object({ contains: z.string() }).strict().describe('a string containing this text as whole words, case-insensitive'),
    z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }).strict().describe('a date in any common format that means this YYYY-MM-DD'),
    z.object({ datetime: z.string() }).strict().describe('an ISO date-time that denotes the same instant'),
    z.object({ set: z.array(z.unknown()) }).strict().describe('an array with exactly these items in any order'),
    z.object({ length: z.int().min(0) }).strict().describe('an array or string of this length'),
    z.object({ sentences: CountSchema }).strict().describe('a text (a message: its greeting line and sign-off are left out) of this many sentences, counted as the sentence_count check does'),
    z.object({ words: CountSchema }).strict().describe('a text of this many words (counted as the word_count check does)'),
    z.object({ lines: CountSchema }).strict().describe('a text of this many non-blank lines'),
    z.object({ all: z.array(ArgMatcherSchema).min(1) }).strict().describe('every one of these matchers holds (a regex and a sentence count on one argument)'),
    z.object({ present: z.literal(true) }).strict().describe('present with any value'),
    z.object({ absent: z.literal(true) }).strict().describe('must not be present'),
    z.object({ some: ArgMatcherSchema }).strict().describe('an array with at least one item matching this matcher'),
    z.object({ every: ArgMatcherSchema }).strict().describe('a non-empty array whose every item matches this matcher'),
    z
      .object({ fields: z.record(z.string(), ArgMatcherSchema) })
      .strict()
      .describe('an object whose paths (sku, dims.w, tags[0]) match these matchers (other fields allowed)'),
  ]),
);

/** One expected (or forbidden) tool call. `args` keys are paths: `city`, `filters.status`, `items[0].sku`. */
export const CallMatcherSchema = z
  .object({
    name: z.string().min(1).describe('the tool name'),
    args: z.record(z.string(), ArgMatcherSchema).optional().describe('argument path → matcher'),
    extra_args: z.enum(['allow', 'forbid']).optional().describe('top-level arguments not named in args (default allow)'),
  })
  .strict();
export type CallMatcher = z.infer<typeof CallMatcherSchema>;

/** Word-boundary text needles (numbers compare as numbers: "16" never matches "160"). */
export const NeedlesSchema = z
  .object({
    all: z.array(z.string()).optional().describe('every needle must appear'),
    any: z.array(z.string()).optional().describe('at least one must appear'),
    forbid: z.array(z.string()).optional().describe('none may appear'),
  })
  .strict();
export type Needles = z.infer<typeof NeedlesSchema>;

/** A tool offered to the model (shorthand of the OpenAI `function` tool). */
export const ToolSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional().describe('a JSON Schema object'),
  })
  .strict();
export type Tool = z.infer<typeof ToolSchema>;

/** Scripted world for multi-step tool cases: which result each call of the model gets. */
export const ToolScriptSchema = z
  .object({
    results: z
      .array(
        z
          .object({
            tool: z.string().min(1),
            when: z.record(z.string(), ArgMatcherSchema).optional().describe('only when the arguments match'),
            call: z.int().min(1).optional().describe('only for the n-th call of this tool (1-based)'),
            result: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
          })
          .strict(),
      )
      .min(1)
      .describe('first matching rule wins; objects are sent as JSON text'),
    default_result: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    max_turns: z.int().min(1).max(30).optional().describe('assistant turns at most (default 10)'),
  })
  .strict();
export type ToolScript = z.infer<typeof ToolScriptSchema>;

export const ParamSpecSchema = z.union([
  z.object({ int: z.tuple([z.int(), z.int()]) }).strict().describe('an integer in [min, max], inclusive'),
  z.object({ choice: z.array(z.union([z.string(), z.number(), z.boolean()])).min(1) }).strict().describe('one of these'),
]);
export type ParamSpec = z.infer<typeof ParamSpecSchema>;

export const ProgramSchema = z
  .object({
    language: LanguageSchema.optional().describe('default python'),
    program: z.string().min(1),
  })
  .strict();

export const HaystackSchema = z
  .object({
    style: z.enum(['log', 'inventory', 'chronicle']).describe('the kind of filler text'),
    tokens: z.int().min(500).max(200_000).describe('target size (estimated as characters / 4)'),
    seed: z.int().optional().describe('filler seed for unseeded cases (seeded cases use the run seed)'),
    needles: z
      .array(
        z
          .object({
            text: z.string().min(1),
            depth: z
              .union([z.number().min(0).max(1), z.string().regex(/^\{\{\s*[A-Za-z_]\w*\s*\}\}$/)])
              .describe('0 = start, 1 = end; or a "{{param}}" placeholder'),
          })
          .strict(),
      )
      .optional()
      .describe('sentences inserted as their own paragraph at a depth (0 = start, 1 = end)'),
    count: z
      .object({ text: z.string().min(1), times: z.int().min(1).max(500) })
      .strict()
      .optional()
      .describe('a sentence inserted this many times at seeded positions'),
    scatter: z
      .object({
        lines: z.string().min(1).describe('one item per line, usually a derived "{{placeholder}}"'),
        prefix: z.string().optional().describe('text put before each line'),
      })
      .strict()
      .optional()
      .describe('each non-empty line inserted, in its order, as its own paragraph at seeded positions spread over the document'),
  })
  .strict();
export type HaystackSpec = z.infer<typeof HaystackSchema>;
