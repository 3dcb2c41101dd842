/**
 * FieldDefinition → one `## Metadata Schema` bullet (without the leading `- `), in the form
 * `parseSchemaLines` reads back to the same definition:
 *   `name: description (required|optional, type[, min: N][, max: N][, pattern: "re"][, options: [...]][, format: F][, default: v])`
 */
import type { FieldDefinition } from '../../toolkit/metadata-fields.js';

export function formatSchemaLine(field: FieldDefinition): string {
  const attrs: string[] = [field.required ? 'required' : 'optional', field.type];
  const c = field.constraints ?? {};
  if (c.min !== undefined) attrs.push(`min: ${c.min}`);
  if (c.max !== undefined) attrs.push(`max: ${c.max}`);
  // Only `"` is escaped, so the pattern reads as the user would write it by hand.
  if (c.pattern !== undefined) attrs.push(`pattern: "${c.pattern.replace(/"/g, '\\"')}"`);
  if (c.options !== undefined) attrs.push(`options: [${c.options.map((o) => JSON.stringify(o)).join(', ')}]`);
  if (c.format !== undefined) attrs.push(`format: ${c.format}`);
  if (field.default !== undefined) attrs.push(`default: ${JSON.stringify(field.default)}`);
  const description = oneLine(field.description) || field.name;
  return `${field.name}: ${description} (${attrs.join(', ')})`;
}

/** A description is one bullet: a line break would end it. Its own parentheses are safe, as only the last group is read as attributes. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
