/**
 * One field model for both ways a schema is written: the `## Metadata Schema` bullets of a
 * type's `_description.md` and the JSON array `update_note_type` takes. Both parse into
 * FieldDefinition; both are checked by `fieldProblems`, so a rule means the same either way.
 * Shared by the schema plugin (which parses and checks) and note-types (whose tools take the
 * JSON form): the model belongs to neither, as the markdown parser belongs to no plugin.
 */
import { z } from 'zod';
import type { MetadataValue } from '../kernel/note.js';

export const FIELD_TYPES = ['string', 'number', 'boolean', 'date', 'array', 'select'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface FieldConstraints {
  /** number: smallest value; array: fewest items; string: shortest length. */
  min?: number;
  /** number: largest value; array: most items; string: longest length. */
  max?: number;
  /** string: a JavaScript regular expression the value must match. */
  pattern?: string;
  /** select: the allowed values. */
  options?: string[];
  /** date: `YYYY-MM-DD` restricts to a calendar date without a time. */
  format?: string;
}

export interface FieldDefinition {
  name: string;
  type: FieldType;
  description: string;
  required: boolean;
  constraints?: FieldConstraints;
  default?: MetadataValue;
}

export interface TypeSchema {
  fields: FieldDefinition[];
  /** Lines or fields that could not be used, each naming the field and the fault; the type still loads. */
  errors: string[];
  /** Accepted but worth knowing (a schema field naming a key the vault manages, ...). */
  warnings: string[];
}

/** Keys the vault sets itself: a schema may mention them, metadata may not change them. */
export const SYSTEM_KEYS = ['title', 'filename', 'type', 'created', 'updated'] as const;
export type SystemKey = (typeof SYSTEM_KEYS)[number];

export function isSystemKey(name: string): name is SystemKey {
  return (SYSTEM_KEYS as readonly string[]).includes(name);
}

const FIELD_NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_-]{0,63}$/u;

/** Every fault of one field definition, as sentences naming the field. Empty when it is sound. */
export function fieldProblems(field: FieldDefinition): string[] {
  const problems: string[] = [];
  const at = `field '${field.name}'`;
  if (!FIELD_NAME.test(field.name)) problems.push(`${at}: name must be letters, digits, "_" or "-" (at most 64)`);
  if (!(FIELD_TYPES as readonly string[]).includes(field.type)) {
    problems.push(`${at}: unknown type '${field.type}'; use one of ${FIELD_TYPES.join(', ')}`);
    return problems;
  }
  const c = field.constraints ?? {};
  if (c.min !== undefined && !Number.isFinite(c.min)) problems.push(`${at}: min must be a number`);
  if (c.max !== undefined && !Number.isFinite(c.max)) problems.push(`${at}: max must be a number`);
  if (c.min !== undefined && c.max !== undefined && c.min > c.max)
    problems.push(`${at}: min (${c.min}) is greater than max (${c.max})`);
  if ((c.min !== undefined || c.max !== undefined) && !['number', 'array', 'string'].includes(field.type)) {
    problems.push(`${at}: min/max apply to number, string and array fields, not ${field.type}`);
  }
  if (c.pattern !== undefined) {
    if (field.type !== 'string') problems.push(`${at}: pattern applies to string fields, not ${field.type}`);
    const regexProblem = regexError(c.pattern);
    if (regexProblem)
      problems.push(`${at}: pattern "${c.pattern}" is not a valid regular expression (${regexProblem})`);
  }
  if (field.type === 'select' && (!c.options || c.options.length === 0))
    problems.push(`${at}: a select field needs options: ["a", "b", ...]`);
  if (c.options && field.type !== 'select') problems.push(`${at}: options apply to select fields, not ${field.type}`);
  if (c.format !== undefined && !(field.type === 'date' && c.format === 'YYYY-MM-DD')) {
    problems.push(`${at}: format "${c.format}" is not supported (date fields accept format: YYYY-MM-DD)`);
  }
  return problems;
}

function regexError(pattern: string): string | undefined {
  try {
    new RegExp(pattern); // no `u` flag: flint-note compiled patterns the same way
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** The JSON form of one field (`update_note_type`'s `metadata_schema` items), as tool input. */
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
