import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { shareRepeatedSubschemas } from '../../../app/json-schema-sharing.js';
import { listedJsonSchema } from '../../../app/listed-schema.js';
import { defineTool } from '../../../kernel/tool.js';

const field = z.object({
  name: z.string().min(1).describe('Frontmatter key'),
  kind: z.enum(['string', 'number', 'boolean', 'date']),
  description: z.string().optional().describe('What the field holds'),
});

describe('shareRepeatedSubschemas', () => {
  it('writes a repeated sub-schema once under $defs, named after its property', () => {
    const tool = defineTool({
      name: 'demo',
      description: 'demo',
      input: z.object({ fields: z.union([z.array(field), z.object({ fields: z.array(field) })]) }),
      annotations: { readOnlyHint: true },
      handler: async () => null,
    });
    const schema = listedJsonSchema(tool.input) as { $defs?: Record<string, unknown> };
    // The largest repeat wins: here the whole list of fields, not just one field.
    expect(Object.keys(schema.$defs ?? {})).toEqual(['fields']);
    expect(JSON.stringify(schema).match(/#\/\$defs\/fields"/g)).toHaveLength(2);
    expect(schema.$defs?.fields).toMatchObject({
      type: 'array',
      items: { type: 'object', required: ['name', 'kind'] },
    });
  });

  it('leaves small repeats and unrepeated schemas alone', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', minLength: 1 }, b: { type: 'string', minLength: 1 } },
    };
    expect(shareRepeatedSubschemas(structuredClone(schema))).toEqual(schema);
  });
});
