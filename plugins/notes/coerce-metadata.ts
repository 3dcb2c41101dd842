/**
 * Seed 000's "type coercion" before a write is checked: an agent that sends `"3"` for a number
 * field or `"true"` for a boolean meant the number and the boolean, so the value becomes what the
 * type's metadata schema says the field is. Only unambiguous spellings are changed; anything else
 * is left as sent, and the schema check then refuses it naming the field, rule and value.
 *
 * - number: a decimal numeral in a string (`"3"`, `" 4.5 "`, `"-2"`, `"1e3"`)
 * - boolean: `"true"` / `"false"` (any case, spaces around), and 1 / 0
 * - string, select: a number or boolean written as text (`isbn: 9780735211292`, `level: 2` of options "1"/"2")
 * - array: one scalar becomes a one-item list (`tags: "habits"`)
 * - date: an ISO string already; nothing to coerce
 */
import type { Metadata, MetadataValue } from '../../kernel/note.js';
import type { ToolContext } from '../../kernel/tool.js';
import type { FieldDefinition } from '../../toolkit/metadata-fields.js';
import { SCHEMA } from '../schema/service.js';

const NUMERAL = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?\s*$/i;

export async function coerceMetadata(
  ctx: ToolContext,
  type: string | undefined,
  metadata: Metadata | undefined,
): Promise<Metadata | undefined> {
  if (!metadata || type === undefined) return metadata;
  const schema = await ctx
    .tryResolve(SCHEMA)
    ?.forType(type)
    .catch(() => undefined);
  if (!schema?.fields.length) return metadata;
  let out: Metadata | undefined;
  for (const field of schema.fields) {
    const value = metadata[field.name];
    if (value === undefined || value === null) continue;
    const coerced = coerceValue(field, value);
    if (coerced !== value) (out ??= { ...metadata })[field.name] = coerced;
  }
  return out ?? metadata;
}

export function coerceValue(field: FieldDefinition, value: MetadataValue): MetadataValue {
  switch (field.type) {
    case 'number':
      return typeof value === 'string' && NUMERAL.test(value) ? Number(value) : value;
    case 'boolean': {
      if (typeof value === 'number' && (value === 0 || value === 1)) return value === 1;
      if (typeof value !== 'string') return value;
      const word = value.trim().toLowerCase();
      return word === 'true' ? true : word === 'false' ? false : value;
    }
    case 'string':
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
    case 'select': {
      if (typeof value !== 'number' && typeof value !== 'boolean') return value;
      const text = String(value);
      return (field.constraints?.options ?? []).includes(text) ? text : value;
    }
    case 'array':
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? [value] : value;
    default:
      return value;
  }
}
