/**
 * Templates: every `.md` file of the templates directory, read once at start-up. A missing or
 * empty directory fails start-up naming the path; one malformed template is set aside with
 * its reason (get_available_templates shows it) while the others load.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../kernel/errors.js';
import { loadYamlBounded, splitFrontmatter } from '../../toolkit/markdown/frontmatter.js';
import { OPTIONS_KEY } from './options.js';

/** Filled from the call's arguments and the server clock. */
export const STANDARD_PLACEHOLDERS = ['title', 'content_heading', 'content', 'tags', 'created'] as const;

export interface TemplateSection {
  /** The placeholder name, e.g. `core_concept`. */
  placeholder: string;
  /** The heading it sits under, e.g. `Core Concept` (or the placeholder, humanised). */
  label: string;
}

export interface Template {
  name: string;
  path: string;
  text: string;
  /** Line index of the closing `---` of the frontmatter, or -1 without frontmatter. */
  frontmatterEnd: number;
  /** Placeholders alone on a body line, in template order: they receive section text. */
  sections: TemplateSection[];
  /** Placeholders that are neither standard nor sections: left visible and reported. */
  unknown: string[];
  hasContent: boolean;
}

export interface InvalidTemplate {
  name: string;
  path: string;
  error: string;
}

export interface TemplateSet {
  dir: string;
  templates: Map<string, Template>;
  invalid: InvalidTemplate[];
}

const MAX_BYTES = 256 * 1024;
export const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g;

export function loadTemplates(dir: string): TemplateSet {
  const key = `${OPTIONS_KEY}.templates_directory`;
  let entries: fs.Dirent[];
  try {
    if (!fs.statSync(dir).isDirectory()) throw new Error('not a directory');
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : (err as Error).message;
    throw new ConfigError(`${key}: templates directory ${dir} ${reason}`, { key, path: dir });
  }
  const files = entries
    .filter((e) => !e.isDirectory() && e.name.toLowerCase().endsWith('.md') && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
  if (files.length === 0)
    throw new ConfigError(`${key}: templates directory ${dir} has no .md templates`, { key, path: dir });
  const templates = new Map<string, Template>();
  const invalid: InvalidTemplate[] = [];
  for (const file of files) {
    const name = file.slice(0, -3);
    const full = path.join(dir, file);
    try {
      templates.set(name, analyseTemplate(name, full, readTemplate(full)));
    } catch (err) {
      invalid.push({ name, path: full, error: (err as Error).message });
    }
  }
  return { dir, templates, invalid };
}

function readTemplate(file: string): string {
  const stat = fs.statSync(file);
  if (!stat.isFile()) throw new Error('not a regular file');
  if (stat.size > MAX_BYTES) throw new Error(`larger than ${MAX_BYTES / 1024} KB`);
  const bytes = fs.readFileSync(file);
  if (bytes.includes(0)) throw new Error('not a text file (contains NUL bytes)');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('not valid UTF-8 text');
  }
}

/** Parses one template, throwing an Error whose message says what is malformed. */
export function analyseTemplate(name: string, file: string, text: string): Template {
  if (text.trim() === '') throw new Error('the template is empty');
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const frontmatterEnd = findFrontmatterEnd(lines.join('\n'));
  const sections: TemplateSection[] = [];
  const unknown: string[] = [];
  let heading: string | undefined;
  let hasContent = false;
  lines.forEach((line, index) => {
    checkBraces(line, index);
    const inFrontmatter = index <= frontmatterEnd;
    const headingMatch = inFrontmatter ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (headingMatch) heading = headingMatch[1];
    for (const match of line.matchAll(PLACEHOLDER)) {
      const placeholder = match[1] as string;
      if ((STANDARD_PLACEHOLDERS as readonly string[]).includes(placeholder)) {
        if (placeholder === 'content' && !inFrontmatter) hasContent = true;
        continue;
      }
      if (!inFrontmatter && line.trim() === match[0]) {
        if (!sections.some((s) => s.placeholder === placeholder))
          sections.push({ placeholder, label: heading ?? humanise(placeholder) });
      } else if (!unknown.includes(placeholder)) unknown.push(placeholder);
    }
  });
  if (frontmatterEnd > 0) checkFrontmatterYaml(lines.slice(1, frontmatterEnd).join('\n'));
  if (!hasContent && sections.length === 0) {
    throw new Error(
      'the template has nowhere to put the content: add {{content}} or a section placeholder alone on a line under a heading',
    );
  }
  return { name, path: file, text: lines.join('\n'), frontmatterEnd, sections, unknown, hasContent };
}

/** The line of the closing fence, as the shared frontmatter module splits it (what notes use). */
function findFrontmatterEnd(text: string): number {
  const { yaml } = splitFrontmatter(text);
  if (yaml === undefined) {
    if (/^---[ \t]*(\n|$)/.test(text)) throw new Error('the frontmatter opened on line 1 is never closed with ---');
    return -1;
  }
  return yaml === '' ? 1 : yaml.split('\n').length + 1;
}

function checkBraces(line: string, index: number): void {
  const stripped = line.replace(PLACEHOLDER, '');
  const open = stripped.indexOf('{{');
  const close = stripped.indexOf('}}');
  if (open >= 0 || close >= 0) {
    const at = open >= 0 ? open : close;
    const bit = stripped.slice(Math.max(0, at - 10), at + 20).trim();
    throw new Error(
      `line ${index + 1}: malformed placeholder near "${bit}": placeholders are {{name}} on one line, name of letters, digits and _`,
    );
  }
}

function checkFrontmatterYaml(frontmatter: string): void {
  const sample = frontmatter.replace(PLACEHOLDER, (_all, name: string) =>
    name === 'tags' ? '[a, b]' : name === 'created' ? '2025-01-01T00:00:00Z' : 'x',
  );
  try {
    loadYamlBounded(sample);
  } catch (err) {
    throw new Error(`the frontmatter is not valid YAML (${(err as Error).message.split('\n')[0]})`);
  }
}

function humanise(placeholder: string): string {
  return placeholder
    .split('_')
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join(' ');
}

/** `Core Concept`, `core_concept` and `core-concept` all name one section. */
export function sectionKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_|_$/g, '');
}
