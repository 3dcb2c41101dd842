/**
 * The JSON form of a schema (`update_note_type`'s `metadata_schema` array, `create_note_type`'s
 * `metadata_schema.fields`): its zod input shape for tool schemas, and its conversion to the
 * one field model. Faults are collected, not thrown one at a time, so a caller sees them all.
 */
import { z } from 'zod';
import type { MetadataValue } from '../../kernel/note.js';
import { FIELD_TYPES, type FieldDefinition } from './field-model.js';
import { definitionProblems } from './validate.js';

export const jsonFieldInput = z.object({
  name: z.string().min(1).describe('Frontmatter key'),
  type: z.enum(FIELD_TYPES),
  description: z.string().optional(),
  required: z.boolean().optional().describe('Every note must have it'),
  constraints: z
    .object({
      min: z.number().optional().describe('Minimum (length for string/array)'),
      max: z.number().optional().describe('Maximum (length for string/array)'),
      pattern: z.string().optional().describe('Regex a string must match'),
      options: z.array(z.string()).optional().describe('select: allowed values'),
      format: z.string().optional().describe('date: YYYY-MM-DD for no time part'),
    })
    .optional(),
  default: z.unknown().optional().describe('Used when a new note lacks it'),
});

export type JsonFieldInput = z.output<typeof jsonFieldInput>;

/** The JSON fields as definitions, and every fault found (duplicates included). */
export function fieldsFromJson(input: readonly JsonFieldInput[]): { fields: FieldDefinition[]; errors: string[] } {
  const fields: FieldDefinition[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const item of input) {
    const field: FieldDefinition = {
      name: item.name.trim(),
      type: item.type,
      description: item.description?.trim() ?? '',
      required: item.required ?? false,
    };
    const constraints = Object.fromEntries(Object.entries(item.constraints ?? {}).filter(([, v]) => v !== undefined));
    if (Object.keys(constraints).length) field.constraints = constraints;
    if (item.default !== undefined) field.default = item.default as MetadataValue;
    if (seen.has(field.name)) errors.push(`field '${field.name}': defined twice`);
    seen.add(field.name);
    errors.push(...definitionProblems(field));
    fields.push(field);
  }
  return { fields, errors };
}

/** A definition as the JSON form shows it (get_note_type_info). */
export function fieldToJson(field: FieldDefinition): Record<string, unknown> {
  return {
    name: field.name,
    type: field.type,
    required: field.required,
    description: field.description,
    ...(field.constraints ? { constraints: field.constraints } : {}),
    ...(field.default !== undefined ? { default: field.default } : {}),
  };
}
