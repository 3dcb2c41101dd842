/**
 * Reads seed 000's schema bullets, e.g.
 *   `rating: Personal rating (required, number, min: 1, max: 5)`
 *   `status: Reading status (optional, select, options: ["to-read", "done"], default: "to-read")`
 * The attribute group is the last top-level `(...)` of the line; inside it commas split
 * attributes except within quotes or brackets, so patterns and option lists may hold commas.
 * Faults never throw: each becomes an error naming the field, and that field is left out.
 */
import {
  FIELD_TYPES,
  isSystemKey,
  type FieldConstraints,
  type FieldDefinition,
  type FieldType,
  type TypeSchema,
} from '../../toolkit/metadata-fields.js';
import type { MetadataValue } from '../../kernel/note.js';
import { definitionProblems } from './validate.js';

const LINE = /^\s*[`*]*([^:`*]+?)[`*]*\s*:\s*(.*)$/;

export function parseSchemaLines(lines: readonly string[]): TypeSchema {
  const schema: TypeSchema = { fields: [], errors: [], warnings: [] };
  const seen = new Set<string>();
  for (const line of lines) {
    const match = LINE.exec(line);
    if (!match) {
      schema.errors.push(`line "${line}": not in the form "name: description (required|optional, type, ...)"`);
      continue;
    }
    const name = (match[1] ?? '').trim();
    const parsed = parseAttributes(name, match[2] ?? '');
    if (seen.has(name)) {
      schema.errors.push(`field '${name}': defined twice; the first definition is used`);
      continue;
    }
    seen.add(name);
    if (isSystemKey(name)) {
      schema.warnings.push(`field '${name}' is set by the vault itself; it is documented, not validated`);
    } else if (!parsed.hadGroup) {
      schema.warnings.push(`field '${name}': no "(required|optional, type)" given; treated as an optional string`);
    }
    const problems = [...parsed.errors, ...(isSystemKey(name) ? [] : definitionProblems(parsed.field))];
    if (problems.length) {
      schema.errors.push(...problems);
      continue;
    }
    schema.fields.push(parsed.field);
  }
  return schema;
}

interface ParsedLine {
  field: FieldDefinition;
  errors: string[];
  hadGroup: boolean;
}

function parseAttributes(name: string, rest: string): ParsedLine {
  const group = lastGroup(rest);
  const description = (group ? rest.slice(0, group.start) + rest.slice(group.end + 1) : rest).trim();
  const field: FieldDefinition = { name, type: 'string', description, required: false };
  const errors: string[] = [];
  if (!group) return { field, errors, hadGroup: false };
  const constraints: FieldConstraints = {};
  for (const raw of splitTopLevel(group.inner)) {
    const attr = raw.trim();
    if (attr === '') continue;
    const kv = /^([a-z_]+)\s*:\s*([\s\S]*)$/i.exec(attr);
    if (!kv) {
      const word = attr.toLowerCase();
      if (word === 'required') field.required = true;
      else if (word === 'optional') field.required = false;
      else if ((FIELD_TYPES as readonly string[]).includes(word)) field.type = word as FieldType;
      else if (word === 'auto-set' && isSystemKey(name)) continue;
      else
        errors.push(
          `field '${name}': unknown attribute '${attr}' (expected required, optional, a type of ${FIELD_TYPES.join('/')}, or key: value)`,
        );
      continue;
    }
    const key = (kv[1] ?? '').toLowerCase();
    const value = (kv[2] ?? '').trim();
    switch (key) {
      case 'min':
      case 'max': {
        const n = Number(value);
        if (value === '' || !Number.isFinite(n)) errors.push(`field '${name}': ${key} "${value}" is not a number`);
        else constraints[key] = n;
        break;
      }
      case 'pattern':
        constraints.pattern = unquote(value);
        break;
      case 'options': {
        const options = parseOptions(value);
        if (options) constraints.options = options;
        else errors.push(`field '${name}': options ${value} is not a list such as ["a", "b"]`);
        break;
      }
      case 'format':
        constraints.format = unquote(value);
        break;
      case 'default':
        field.default = parseValue(value);
        break;
      default:
        errors.push(`field '${name}': unknown key '${key}' (expected min, max, pattern, options, format or default)`);
    }
  }
  if (Object.keys(constraints).length) field.constraints = constraints;
  return { field, errors, hadGroup: true };
}

/** The last top-level parenthesised group, ignoring parentheses inside quotes. */
function lastGroup(text: string): { start: number; end: number; inner: string } | undefined {
  let depth = 0;
  let start = -1;
  let found: { start: number; end: number; inner: string } | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' && depth > 0) {
      i = closingQuote(text, i);
      continue;
    }
    if (ch === '(') {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === ')' && depth > 0) {
      depth--;
      if (depth === 0) found = { start, end: i, inner: text.slice(start + 1, i) };
    }
  }
  return found;
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') i = closingQuote(text, i);
    else if (ch === '[' || ch === '(' || ch === '{') depth++;
    else if ((ch === ']' || ch === ')' || ch === '}') && depth > 0) depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
}

/** Index of the `"` closing the string opened at `open` (`\"` does not close it). */
function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

/** `"^\d+$"` → `^\d+$`: only `\"` is an escape, so regex backslashes survive as written. */
export function unquote(value: string): string {
  const m = /^"([\s\S]*)"$/.exec(value) ?? /^'([\s\S]*)'$/.exec(value);
  return m ? (m[1] ?? '').replace(/\\"/g, '"') : value;
}

function parseOptions(value: string): string[] | undefined {
  const m = /^\[([\s\S]*)\]$/.exec(value);
  if (!m) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed.map((o) => String(o));
  } catch {
    // not JSON: flint-note accepted single quotes and bare words too
  }
  return splitTopLevel(m[1] ?? '')
    .map((o) => o.trim().replace(/^['"]|['"]$/g, ''))
    .filter((o) => o !== '');
}

function parseValue(value: string): MetadataValue {
  try {
    return JSON.parse(value) as MetadataValue;
  } catch {
    return unquote(value);
  }
}
