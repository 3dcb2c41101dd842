/**
 * Fills a template. In the YAML frontmatter values are written as YAML (tags as a list without
 * `#`, strings quoted when they would not read back as themselves), so the card stays a note
 * with a title and tags; in the body they are written as text. A section placeholder takes the
 * `sections` text given for it, else (templates without {{content}}) the first paragraph fills
 * the first section and the rest the second. Unknown placeholders stay visible and are reported.
 */
import yaml from 'js-yaml';
import { PLACEHOLDER, sectionKey, type Template } from './templates.js';

export interface CardParts {
  title: string;
  content: string;
  heading?: string | undefined;
  tags: string[];
  /** Section text by placeholder (`core_concept`) or label (`Core Concept`). */
  sections?: Record<string, string> | undefined;
  /** ISO-8601 server time. */
  created: string;
}

export interface RenderedCard {
  text: string;
  sectionsPopulated: string[];
  sectionsEmpty: string[];
  unknownPlaceholders: string[];
  /** `sections` keys that matched no section of the template. */
  unusedSections: string[];
}

export function renderCard(template: Template, parts: CardParts): RenderedCard {
  const sectionText = assignSections(template, parts);
  const unknown = new Set<string>();
  const populated: string[] = [];
  const empty: string[] = [];
  const lines = template.text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const inFrontmatter = i <= template.frontmatterEnd;
    const alone = /^\s*\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}\s*$/.exec(line)?.[1];
    const section = !inFrontmatter && alone ? template.sections.find((s) => s.placeholder === alone) : undefined;
    if (section) {
      const value = sectionText.get(section.placeholder) ?? '';
      if (value === '') {
        empty.push(section.label);
        if (lines[i + 1]?.trim() === '' && i + 2 < lines.length) i++; // drop the blank line after it too
        continue;
      }
      populated.push(section.label);
      out.push(value);
      continue;
    }
    out.push(
      line.replace(PLACEHOLDER, (all, name: string) => {
        const value = inFrontmatter ? yamlValue(name, parts) : textValue(name, parts);
        if (value === undefined) {
          unknown.add(name);
          return all;
        }
        return value;
      }),
    );
  }
  const used = new Set(template.sections.flatMap((s) => [sectionKey(s.placeholder), sectionKey(s.label)]));
  return {
    text: `${out.join('\n').trimEnd()}\n`,
    sectionsPopulated: populated,
    sectionsEmpty: empty,
    unknownPlaceholders: [...unknown],
    unusedSections: Object.keys(parts.sections ?? {}).filter((key) => !used.has(sectionKey(key))),
  };
}

function assignSections(template: Template, parts: CardParts): Map<string, string> {
  const given = new Map(Object.entries(parts.sections ?? {}).map(([key, value]) => [sectionKey(key), value.trim()]));
  const out = new Map<string, string>();
  for (const section of template.sections) {
    const value = given.get(sectionKey(section.placeholder)) ?? given.get(sectionKey(section.label));
    if (value !== undefined) out.set(section.placeholder, value);
  }
  if (template.hasContent || given.size > 0) return out;
  const paragraphs = parts.content
    .trim()
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const [first, second] = template.sections;
  if (first) out.set(first.placeholder, second ? (paragraphs[0] ?? '') : paragraphs.join('\n\n'));
  if (second) out.set(second.placeholder, paragraphs.slice(1).join('\n\n'));
  return out;
}

function textValue(name: string, parts: CardParts): string | undefined {
  switch (name) {
    case 'title':
      return parts.title;
    case 'content_heading':
      return parts.heading ?? parts.title;
    case 'content':
      return parts.content.trim();
    case 'tags':
      return parts.tags.join(', ');
    case 'created':
      return parts.created;
    default:
      return undefined;
  }
}

function yamlValue(name: string, parts: CardParts): string | undefined {
  switch (name) {
    case 'tags':
      return `[${parts.tags.map((tag) => yamlScalar(tag.replace(/^#+/, ''))).join(', ')}]`;
    case 'created':
      return parts.created;
    default: {
      const text = textValue(name, parts);
      return text === undefined ? undefined : yamlScalar(text);
    }
  }
}

/** Plain when it is simple and reads back as the same string, else a JSON (YAML double-quoted) string. */
export function yamlScalar(value: string): string {
  if (/^[\p{L}\p{N}][\p{L}\p{N} _.()-]*$/u.test(value) && !value.endsWith(' ')) {
    try {
      if (yaml.load(value, { schema: yaml.CORE_SCHEMA }) === value) return value;
    } catch {
      // not plain-safe: quote it below
    }
  }
  return JSON.stringify(value);
}
