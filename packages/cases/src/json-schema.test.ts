import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { caseJsonSchema, caseJsonSchemaText } from './json-schema';

const committed = fileURLToPath(new URL('../../../cases/schema.json', import.meta.url));

describe('cases/schema.json', () => {
  it('is generated from the zod schema and up to date (UPDATE_SCHEMA=1 rewrites it)', () => {
    const text = caseJsonSchemaText();
    if (process.env.UPDATE_SCHEMA === '1') writeFileSync(committed, text);
    const onDisk = readFileSync(committed, 'utf8');
    expect(onDisk, 'cases/schema.json is stale: run `pnpm --filter @crucibleforge/cases schema`').toBe(text);
  });
  it('describes the grader union and the required fields (a case that extends a base needs only id and extends)', () => {
    type Req = { required: string[] };
    const schema = caseJsonSchema() as { else: Req; then: Req; properties: Record<string, { oneOf?: unknown[]; anyOf?: unknown[] }> };
    expect(schema.else.required).toEqual(expect.arrayContaining(['id', 'title', 'category', 'difficulty', 'max_tokens', 'grader', 'reference']));
    expect(schema.then.required).toEqual(['id', 'extends']);
    const grader = schema.properties.grader!;
    expect((grader.oneOf ?? grader.anyOf)!.length).toBe(12);
  });
});
