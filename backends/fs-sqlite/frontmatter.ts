/**
 * YAML frontmatter in and out. Parsing never throws: frontmatter that is not valid YAML (or not
 * a mapping) leaves the note readable, with empty metadata and a warning saying why.
 */
import yaml from 'js-yaml';
import type { Metadata, MetadataValue } from '../../kernel/note.js';

// The closing fence is a line of its own: `---` ending some value's line does not close it.
const FRONTMATTER = /^---\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

export interface ParsedMarkdown {
  metadata: Metadata;
  body: string;
  hasFrontmatter: boolean;
  warnings: string[];
}

export function parseMarkdown(text: string): ParsedMarkdown {
  const match = FRONTMATTER.exec(text);
  if (!match) return { metadata: {}, body: text, hasFrontmatter: false, warnings: [] };
  // One blank line after the closing fence is our own separator, not part of the content.
  const body = text.slice(match[0].length).replace(/^\r?\n/, '');
  const yamlText = match[1] ?? '';
  if (yamlText.trim() === '') return { metadata: {}, body, hasFrontmatter: true, warnings: [] };
  try {
    // CORE_SCHEMA: YAML 1.2 core types only, so dates stay the strings they were written as;
    // json: a repeated key keeps its last value instead of failing the whole note.
    const data: unknown = yaml.load(yamlText, { schema: yaml.CORE_SCHEMA, json: true });
    if (data === null || data === undefined) return { metadata: {}, body, hasFrontmatter: true, warnings: [] };
    if (typeof data !== 'object' || Array.isArray(data)) {
      return { metadata: {}, body, hasFrontmatter: true, warnings: ['frontmatter is not a YAML mapping; metadata ignored'] };
    }
    return { metadata: toMetadata(data as Record<string, unknown>), body, hasFrontmatter: true, warnings: [] };
  } catch (err) {
    const reason = (err as Error).message.split('\n')[0] ?? 'parse error';
    return { metadata: {}, body, hasFrontmatter: true, warnings: [`frontmatter is not valid YAML (${reason}); metadata ignored`] };
  }
}

/** Keys in flint's order (title, filename, type, created, updated), the rest as given. */
export function serializeMarkdown(metadata: Metadata, body: string): string {
  const leading = ['title', 'filename', 'type', 'created', 'updated'];
  const ordered: Record<string, MetadataValue> = {};
  for (const key of leading) if (metadata[key] !== undefined) ordered[key] = metadata[key];
  for (const [key, value] of Object.entries(metadata)) if (!leading.includes(key) && value !== undefined) ordered[key] = value;
  const yamlText = yaml.dump(ordered, { schema: yaml.CORE_SCHEMA, lineWidth: -1, noRefs: true });
  return `---\n${yamlText}---\n\n${body}`;
}

function toMetadata(data: Record<string, unknown>): Metadata {
  const out: Metadata = {};
  for (const [key, value] of Object.entries(data)) out[key] = toValue(value);
  return out;
}

function toValue(value: unknown): MetadataValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(toValue);
  if (typeof value === 'object') return toMetadata(value as Record<string, unknown>);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return String(value);
}
