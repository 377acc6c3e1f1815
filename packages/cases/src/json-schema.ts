import { z } from 'zod';
import { CaseSchema } from './schema/case';

/**
 * The JSON Schema of one case document, generated from the zod schema (the single source of truth) and
 * committed as `cases/schema.json` so editors autocomplete case files.
 */
export function caseJsonSchema(): Record<string, unknown> {
  const { required, ...schema } = z.toJSONSchema(CaseSchema, { io: 'input', unrepresentable: 'any', reused: 'ref' }) as Record<string, unknown>;
  return {
    ...schema,
    // a case that `extends` a base gives only what differs; the loader checks the merged case
    if: { required: ['extends'] },
    then: { required: ['id', 'extends'] },
    else: { required },
    $id: 'https://crucibleforge.dev/schema/case.json',
    title: 'CrucibleForge case',
    description: 'One benchmark case. Generated from packages/cases/src/schema — do not edit by hand.',
  };
}

/** The committed file's exact text (stable key order, two-space indent, trailing newline). */
export function caseJsonSchemaText(): string {
  return `${JSON.stringify(caseJsonSchema(), null, 2)}\n`;
}
