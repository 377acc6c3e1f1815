import { z } from 'zod';
import { CountSchema, TypeSpecSchema } from './common';

const counted = <T extends string>(check: T, description: string) =>
  CountSchema.extend({
    check: z.literal(check),
    prose: z.boolean().optional().describe('count only the prose: fenced code blocks (a ```json object) and a bare JSON object are left out'),
    label: z.string().optional(),
  })
    .strict()
    .describe(description);

/**
 * The instruction-check library. Every check is a pure function of the reply text (see checks/library.ts).
 * Words are runs of letters/digits (bullet markers, numbering and punctuation are not words).
 */
export const CheckSchema = z.discriminatedUnion('check', [
  counted('word_count', 'number of words (bullet markers and list numbers are not words)'),
  counted('sentence_count', 'number of sentences (decimals, abbreviations and list items handled)'),
  counted('paragraph_count', 'number of blocks separated by blank lines'),
  counted('line_count', 'number of non-blank lines'),
  counted('char_count', 'number of characters of the trimmed reply'),
  CountSchema.extend({
    check: z.literal('bullet_count'),
    style: z.enum(['any', 'dash', 'star', 'numbered']).optional().describe('default any'),
    label: z.string().optional(),
  })
    .strict()
    .describe('number of list items (lines starting with -, *, • or 1. / 1) )'),
  CountSchema.extend({
    check: z.literal('code_block_count'),
    lang: z.string().optional().describe('only blocks tagged with this language (e.g. json); default any'),
    label: z.string().optional(),
  })
    .strict()
    .describe('number of fenced code blocks'),
  CountSchema.extend({
    check: z.literal('word_frequency'),
    word: z.string().min(1),
    label: z.string().optional(),
  })
    .strict()
    .describe('how often a word or phrase occurs (whole words, case-insensitive)'),
  CountSchema.extend({
    check: z.literal('regex_count'),
    pattern: z.string().min(1),
    flags: z.string().optional(),
    label: z.string().optional(),
  })
    .strict()
    .describe('how many times a JS regex matches'),
  z
    .object({
      check: z.literal('letter_case'),
      mode: z.enum(['lower', 'upper']),
      except: z.array(z.string()).optional().describe('words allowed in the other case (acronyms)'),
      label: z.string().optional(),
    })
    .strict()
    .describe('every letter in this case; digits and symbols ignored'),
  z.object({ check: z.literal('forbidden_words'), words: z.array(z.string()).min(1), label: z.string().optional() }).strict(),
  z
    .object({
      check: z.literal('required_words'),
      words: z.array(z.union([z.string(), z.array(z.string()).min(1)])).min(1).describe('each must appear; a list inside means any one of those ("twice" or "two times")'),
      label: z.string().optional(),
    })
    .strict(),
  z
    .object({ check: z.literal('forbidden_letters'), letters: z.string().min(1), label: z.string().optional() })
    .strict()
    .describe('none of these letters, in either case'),
  z
    .object({
      check: z.literal('required_sections'),
      sections: z.array(z.string()).min(1),
      ordered: z.boolean().optional().describe('default true'),
      label: z.string().optional(),
    })
    .strict()
    .describe('headings (markdown #, **bold** line, or "Title:" line) present, in order'),
  z
    .object({ check: z.literal('starts_with'), text: z.string().min(1), ignore_case: z.boolean().optional(), label: z.string().optional() })
    .strict(),
  z
    .object({ check: z.literal('ends_with'), text: z.string().min(1), ignore_case: z.boolean().optional(), label: z.string().optional() })
    .strict(),
  z
    .object({ check: z.literal('order'), items: z.array(z.string()).min(2), label: z.string().optional() })
    .strict()
    .describe('the first mention of each item comes in this order'),
  z
    .object({ check: z.literal('regex'), pattern: z.string().min(1), flags: z.string().optional(), label: z.string().optional() })
    .strict()
    .describe('the JS regex matches somewhere'),
  z
    .object({ check: z.literal('forbid_regex'), pattern: z.string().min(1), flags: z.string().optional(), label: z.string().optional() })
    .strict(),
  z
    .object({ check: z.literal('every_line'), pattern: z.string().min(1), flags: z.string().optional(), label: z.string().optional() })
    .strict()
    .describe('every non-blank line matches the JS regex'),
  z.object({ check: z.literal('exact_text'), text: z.string(), label: z.string().optional() }).strict(),
  z
    .object({
      check: z.literal('grounded'),
      units: z.array(z.string().min(1)).optional().describe('only figures with one of these units count (default: every number and clock time)'),
      allow: z.array(z.union([z.string(), z.number()])).optional().describe('figures a reply may state although the prompt does not (computed ones)'),
      label: z.string().optional(),
    })
    .strict()
    .describe('every figure the reply states is in the prompt (an invented frequency, price or time fails)'),
  z
    .object({
      check: z.literal('json'),
      keys: z.record(z.string(), TypeSpecSchema),
      exact_keys: z.boolean().optional(),
      values: z.record(z.string(), z.unknown()).optional().describe('path → exact expected value (as the json grader)'),
      whole_reply: z.boolean().optional().describe('the reply is only the JSON (a code fence allowed)'),
      label: z.string().optional(),
    })
    .strict()
    .describe('a JSON object with these keys and types (and values), as the json grader'),
]);
export type Check = z.infer<typeof CheckSchema>;
