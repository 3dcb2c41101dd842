/**
 * Shared pieces of the note-type tools: the metadata_schema argument (the seed shows both the
 * `{ fields: [...] }` object and a bare array, so both are taken) and its conversion to schema
 * bullets through SCHEMA_CODEC, which the schema plugin fills.
 */
import { z } from 'zod';
import { PluginDependencyError, ValidationError } from '../../../kernel/errors.js';
import type { ToolContext } from '../../../kernel/tool.js';
import {
  isSystemKey,
  jsonFieldInput,
  type FieldDefinition,
  type JsonFieldInput,
} from '../../../toolkit/metadata-fields.js';
import { SCHEMA_CODEC } from '../service.js';

export const metadataSchemaInput = z
  .union([
    z.array(jsonFieldInput),
    z.object({ fields: z.array(jsonFieldInput), version: z.string().optional().describe('Ignored') }),
  ])
  .describe('Frontmatter fields of its notes');

export function fieldList(input: z.output<typeof metadataSchemaInput>): JsonFieldInput[] {
  return Array.isArray(input) ? input : input.fields;
}

function requireSchema(ctx: ToolContext) {
  const schema = ctx.tryResolve(SCHEMA_CODEC);
  if (!schema) {
    throw new PluginDependencyError(
      'metadata_schema needs the "schema" plugin, which this profile does not load; add it under plugins in the config.',
      {
        plugin: 'schema',
      },
    );
  }
  return schema;
}

/** The schema's bullet lines, with warnings for fields naming keys the vault manages itself. */
export function schemaLinesFrom(
  ctx: ToolContext,
  input: JsonFieldInput[],
): { lines: string[]; fields: FieldDefinition[]; warnings: string[] } {
  const schema = requireSchema(ctx);
  const fields = schema.fromJson(input);
  const warnings = fields
    .filter((f) => isSystemKey(f.name))
    .map((f) => `field '${f.name}' is set by the vault itself; it is documented in the schema but not validated`);
  return { lines: schema.toLines(fields), fields, warnings };
}

/** Schema bullet lines given as text: parsed (a bad line is refused, naming it) and written back normalised. */
export function schemaLinesFromText(
  ctx: ToolContext,
  lines: readonly string[],
): { lines: string[]; fields: FieldDefinition[]; warnings: string[] } {
  const schema = requireSchema(ctx);
  const parsed = schema.parseLines(lines);
  if (parsed.errors.length)
    throw new ValidationError(`Invalid metadata_schema: ${parsed.errors.join('; ')}`, {
      field: 'value',
      errors: parsed.errors,
    });
  return { lines: schema.toLines(parsed.fields), fields: parsed.fields, warnings: parsed.warnings };
}

/** `instructions` as the seed passes it (newline-separated text, bullets optional) or as a list. */
export function instructionLines(input: string | readonly string[]): string[] {
  const lines = typeof input === 'string' ? input.split(/\r?\n/) : [...input];
  return lines
    .map((l) =>
      l
        .trim()
        .replace(/^[-*]\s*/, '')
        .trim(),
    )
    .filter((l) => l !== '');
}
