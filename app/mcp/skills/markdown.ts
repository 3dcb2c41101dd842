/**
 * The skills' text comes from files that already say it (a profile's README, a plugin's shipped
 * defaults) and from what the served vault answers, so nothing here is a second copy that could
 * drift. This module reads those files as blocks and writes `SKILL.md` files the SDK accepts.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { packageRoot } from '../../../toolkit/package-root.js';

/** A markdown file cut at its `## ` headings into blank-line-separated blocks (a fenced block stays whole). */
export interface MarkdownDoc {
  /** Blocks between the `# ` title and the first `## ` heading. */
  intro: string[];
  /** Blocks under each `## ` heading, keyed by the heading's text in lower case. */
  sections: Map<string, string[]>;
}

export function parseMarkdown(text: string): MarkdownDoc {
  const intro: string[] = [];
  const sections = new Map<string, string[]>();
  let target = intro;
  let block: string[] = [];
  let fenced = false;
  const flush = () => {
    if (block.length) target.push(block.join('\n'));
    block = [];
  };
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (!fenced && /^#\s/.test(line)) {
      flush();
      continue;
    }
    const h2 = fenced ? null : /^##\s+(.+?)\s*$/.exec(line);
    if (h2) {
      flush();
      target = [];
      sections.set(h2[1]!.toLowerCase(), target);
      continue;
    }
    if (!fenced && line.trim() === '') {
      flush();
      continue;
    }
    block.push(line);
  }
  flush();
  return { intro, sections };
}

export const isTable = (block: string) => block.split('\n').every((line) => line.trimStart().startsWith('|'));
export const isFence = (block: string) => block.trimStart().startsWith('```');

/** The body rows of a markdown table (header and `|---|` line dropped), cells trimmed; `\|` stays inside a cell. */
export function tableRows(block: string): string[][] {
  return block
    .split('\n')
    .slice(2)
    .map((line) =>
      line
        .trim()
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

/** A section's blocks, or a refusal naming the file and heading: a README edit that drops one must fail loudly. */
export function section(doc: MarkdownDoc, heading: string, file: string): string[] {
  const blocks = doc.sections.get(heading.toLowerCase());
  if (!blocks) throw new Error(`skills: ${file} has no "## ${heading}" section to publish`);
  return blocks;
}

/** A profile's README as shipped with the package (`files` in package.json lists profiles/*\/README.md). */
export async function profileReadme(profile: string): Promise<{ doc: MarkdownDoc; file: string }> {
  const file = `profiles/${profile}/README.md`;
  return { doc: parseMarkdown(await fs.readFile(path.join(packageRoot(), file), 'utf8')), file };
}

/** The markdown after a `---` frontmatter block (the whole text when there is none). */
export function withoutFrontmatter(text: string): string {
  const match = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return (match ? text.slice(match[0].length) : text).trim();
}

/** The SDK's name rule (Agent Skills): 1-64 lowercase letters, digits and single hyphens. */
const MAX_NAME = 64;
/** The SDK's description bound, counted in characters (code points). */
const MAX_DESCRIPTION = 1024;

/**
 * A name's part made fit for a skill name: accents dropped, anything else outside `[a-z0-9]` a
 * hyphen; '' when nothing is left (a name in another script), for the caller to replace.
 */
export function slug(text: string, max = MAX_NAME): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
}

/** One line, within the SDK's bound: a longer one ends in "…" rather than failing the skill. */
export function fitDescription(text: string): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length <= MAX_DESCRIPTION ? chars.join('') : `${chars.slice(0, MAX_DESCRIPTION - 1).join('')}…`;
}

/**
 * A `SKILL.md`: the frontmatter the SDK reads (`name` plain, `description` as a JSON string,
 * which is also a YAML double-quoted scalar, so any text is safe in it), then the body's blocks.
 */
export function skillMarkdown(name: string, description: string, blocks: readonly string[]): string {
  if (name.length > MAX_NAME || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name)) {
    throw new Error(`skills: "${name}" is not a skill name (1-64 lowercase letters, digits and single hyphens)`);
  }
  const frontmatter = ['---', `name: ${name}`, `description: ${JSON.stringify(fitDescription(description))}`, '---'];
  return `${frontmatter.join('\n')}\n\n${blocks.join('\n\n').trim()}\n`;
}

/** A tool's listing line: `` - `name`: description ``. */
export function toolLine(name: string, description: string): string {
  return `- \`${name}\`: ${description.replace(/\s+/g, ' ').trim()}`;
}
