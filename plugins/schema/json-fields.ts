/**
 * The JSON form of a schema (`update_note_type`'s `metadata_schema` array, `create_note_type`'s
 * `metadata_schema.fields`): its zod input shape for tool schemas, and its conversion to the
 * one field model. Faults are collected, not thrown one at a time, so a caller sees them all.
 */
import type { MetadataValue } from '../../kernel/note.js';
import type { FieldDefinition, JsonFieldInput } from '../../toolkit/metadata-fields.js';
import { definitionProblems } from './validate.js';

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
