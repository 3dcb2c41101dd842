/**
 * YAML frontmatter in and out, over the shared bounded module (toolkit/markdown/frontmatter.ts).
 * Parsing never throws: frontmatter that is not valid YAML, not a mapping, or past a bound (an
 * alias bomb, nesting too deep) leaves the note readable, with empty metadata and a warning why.
 * Serialising refuses metadata the parser could not read back.
 */
import yaml from 'js-yaml';
import { ValidationError } from '../../kernel/errors.js';
import type { Metadata, MetadataValue } from '../../kernel/note.js';
import {
  loadYamlBounded,
  splitFrontmatter,
  tooDeepField,
  YamlBoundError,
  FRONTMATTER_BOUNDS,
} from '../../toolkit/markdown/frontmatter.js';

export interface ParsedMarkdown {
  metadata: Metadata;
  body: string;
  hasFrontmatter: boolean;
  warnings: string[];
}

export function parseMarkdown(text: string): ParsedMarkdown {
  const { yaml: yamlText, body } = splitFrontmatter(text);
  if (yamlText === undefined) return { metadata: {}, body: text, hasFrontmatter: false, warnings: [] };
  if (yamlText.trim() === '') return { metadata: {}, body, hasFrontmatter: true, warnings: [] };
  try {
    const data = loadYamlBounded(yamlText);
    if (data === null) return { metadata: {}, body, hasFrontmatter: true, warnings: [] };
    if (typeof data !== 'object' || Array.isArray(data)) {
      return {
        metadata: {},
        body,
        hasFrontmatter: true,
        warnings: ['frontmatter is not a YAML mapping; metadata ignored'],
      };
    }
    return { metadata: data, body, hasFrontmatter: true, warnings: [] };
  } catch (err) {
    if (err instanceof YamlBoundError)
      return {
        metadata: {},
        body,
        hasFrontmatter: true,
        warnings: [`frontmatter refused: ${err.message}; metadata ignored`],
      };
    const reason = (err as Error).message.split('\n')[0] ?? 'parse error';
    return {
      metadata: {},
      body,
      hasFrontmatter: true,
      warnings: [`frontmatter is not valid YAML (${reason}); metadata ignored`],
    };
  }
}

/** Keys in flint's order (title, filename, type, created, updated), the rest as given. */
export function serializeMarkdown(metadata: Metadata, body: string): string {
  const deep = tooDeepField(metadata);
  if (deep !== undefined) {
    throw new ValidationError(
      `Metadata field "${deep}" nests deeper than ${FRONTMATTER_BOUNDS.maxDepth} levels, which could not be read back; flatten it.`,
      { field: deep, maxDepth: FRONTMATTER_BOUNDS.maxDepth },
    );
  }
  const leading = ['title', 'filename', 'type', 'created', 'updated'];
  const ordered: Record<string, MetadataValue> = {};
  for (const key of leading) if (metadata[key] !== undefined) ordered[key] = metadata[key];
  for (const [key, value] of Object.entries(metadata))
    if (!leading.includes(key) && value !== undefined) ordered[key] = value;
  const yamlText = yaml.dump(ordered, { schema: yaml.CORE_SCHEMA, lineWidth: -1, noRefs: true });
  return `---\n${yamlText}---\n\n${body}`;
}
