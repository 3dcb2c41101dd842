/**
 * A type's `_description.md` in seed 000's format: `# Name`, `## Purpose`, `## Agent
 * Instructions` (a bullet list) and `## Metadata Schema` (bullets such as
 * `- rating: Personal rating (required, number, min: 1, max: 5)`). The schema bullets are kept
 * as text here; the schema plugin gives them meaning.
 */
import type { TypeDescription } from './service.js';

export function parseDescription(text: string, typeName: string): TypeDescription {
  const sections = new Map<string, string[]>();
  let title = '';
  let current: string[] | undefined;
  for (const line of text.split(/\r?\n/)) {
    const h1 = /^#\s+(.+?)\s*$/.exec(line);
    if (h1 && !title) {
      title = h1[1] ?? '';
      continue;
    }
    const h2 = /^##\s+(.+?)\s*$/.exec(line);
    if (h2) {
      current = [];
      sections.set(normaliseHeading(h2[1] ?? ''), current);
      continue;
    }
    current?.push(line);
  }
  const bullets = (lines: string[] = []) =>
    lines.filter((l) => /^\s*[-*]\s+/.test(l)).map((l) => l.replace(/^\s*[-*]\s+/, '').trim());
  return {
    title: title || typeName,
    purpose: (sections.get('purpose') ?? []).join('\n').trim() || `Notes of type '${typeName}'`,
    agentInstructions: bullets(sections.get('agent instructions')),
    schemaLines: bullets(sections.get('metadata schema')),
  };
}

export function formatDescription(
  typeName: string,
  purpose: string,
  instructions: readonly string[],
  schemaLines: readonly string[],
): string {
  const heading = typeName.charAt(0).toUpperCase() + typeName.slice(1);
  const parts = [
    `# ${heading}`,
    '',
    '## Purpose',
    purpose.trim(),
    '',
    '## Agent Instructions',
    ...instructions.map((i) => `- ${i}`),
    '',
  ];
  parts.push(
    '## Metadata Schema',
    'Expected frontmatter or metadata fields for this note type:',
    ...schemaLines.map((l) => `- ${l}`),
    '',
  );
  return parts.join('\n');
}

function normaliseHeading(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/\(.*\)/, '')
    .trim();
}

export const SCHEMA_INTRO = 'Expected frontmatter or metadata fields for this note type:';

/**
 * Replaces one `## heading` section's body in place (appending the section when missing), so
 * an update keeps whatever else the user wrote in the file: extra sections, notes, wording.
 */
export function replaceSection(text: string, heading: string, bodyLines: readonly string[]): string {
  const lines = text.split(/\r?\n/);
  const target = normaliseHeading(heading);
  let start = -1;
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const h2 = /^##\s+(.+?)\s*$/.exec(lines[i] ?? '');
    if (!h2) continue;
    if (start === -1 && normaliseHeading(h2[1] ?? '') === target) {
      start = i;
    } else if (start !== -1) {
      end = i;
      break;
    }
  }
  const section = [`## ${heading}`, ...bodyLines, ''];
  if (start === -1) return `${text.replace(/\s*$/, '')}\n\n${section.join('\n')}`;
  const after = lines.slice(end);
  return [...lines.slice(0, start), ...section, ...(after.length ? after : [])].join('\n').replace(/\n*$/, '\n');
}
