/**
 * update_note_type as seed 000's tool table writes it: `field` (instructions | description |
 * metadata_schema) and `value`, beside the named arguments the seed's examples use. The value
 * is read as the named argument would be; metadata_schema's may also come as text, the way the
 * original's `value: string` carried it: JSON (an array of fields or `{fields}`), or schema
 * bullet lines as `_description.md` holds them (`- rating: Personal rating (required, number)`).
 */
import { z } from 'zod';
import { ValidationError } from '../../../kernel/errors.js';
import { metadataSchemaInput } from './schema-input.js';

export const fieldName = z.enum(['instructions', 'description', 'metadata_schema'], {
  error: (issue) =>
    issue.input === 'template'
      ? "field 'template': note types here have no templates; give instructions, description or metadata_schema"
      : 'field must be instructions, description or metadata_schema',
});

type FieldName = z.output<typeof fieldName>;

export interface NamedUpdate {
  instructions?: string | string[] | undefined;
  description?: string | undefined;
  metadata_schema?: z.output<typeof metadataSchemaInput> | undefined;
  /** Schema bullet lines given as text (field/value form only). */
  schema_lines?: string[];
}

const instructionsValue = z.union([z.string(), z.array(z.string())], {
  error: 'value for instructions must be text (one per line) or a list of strings',
});
const descriptionValue = z
  .string({ error: 'value for description must be a string' })
  .trim()
  .min(1, 'value for description must not be empty');

/** The named arguments a `field`/`value` pair stands for (the args unchanged without one). */
export function fromFieldValue(args: NamedUpdate & { field?: FieldName | undefined; value?: unknown }): NamedUpdate {
  const { field, value, ...rest } = args;
  if (field === undefined) return rest;
  const refuse = (message: string): never => {
    throw new ValidationError(message, { field: 'value', for: field });
  };
  if (field === 'instructions') {
    const parsed = instructionsValue.safeParse(value);
    return parsed.success
      ? { ...rest, instructions: parsed.data }
      : refuse(parsed.error.issues[0]?.message ?? 'bad value');
  }
  if (field === 'description') {
    const parsed = descriptionValue.safeParse(value);
    return parsed.success
      ? { ...rest, description: parsed.data }
      : refuse(parsed.error.issues[0]?.message ?? 'bad value');
  }
  let schema: unknown = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (!text.startsWith('[') && !text.startsWith('{')) {
      const lines = text
        .split(/\r?\n/)
        .map((l) =>
          l
            .trim()
            .replace(/^[-*]\s*/, '')
            .trim(),
        )
        .filter((l) => l !== '' && !/^expected frontmatter/i.test(l) && !/^#/.test(l));
      return lines.length ? { ...rest, schema_lines: lines } : refuse('value for metadata_schema holds no field');
    }
    try {
      schema = JSON.parse(text) as unknown;
    } catch (err) {
      refuse(`value for metadata_schema is not valid JSON: ${(err as Error).message}`);
    }
  }
  const parsed = metadataSchemaInput.safeParse(schema);
  if (!parsed.success)
    refuse(
      `value for metadata_schema: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(value)'}: ${i.message}`).join('; ')}`,
    );
  return { ...rest, metadata_schema: parsed.data };
}
