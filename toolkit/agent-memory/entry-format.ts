/**
 * Seed 002's pure markdown entry: `# title\n\n#tag1 #tag2\n\nbody`. Nothing is stored besides
 * the text; the title is the first `# heading`, tags are every inline `#tag` (the shared
 * links/tags parser decides what is a tag), and `content` is what follows the heading and the
 * tag line. Files that do not start with a heading are still served: their whole text is the
 * content and the title comes from a heading further down, else from the filename.
 */
import { extractTags, isTagName } from '../markdown/index.js';
import { ValidationError } from '../../kernel/errors.js';

export type EntryShape = 'top' | 'inline' | 'none';

export interface ParsedEntry {
  /** `top`: the file opens with its heading (what we write); `inline`: a heading further down; `none`. */
  shape: EntryShape;
  title: string | undefined;
  /** The tags on the line right after a top heading, when there is such a line. */
  tagLine: string[];
  content: string;
  /** Every inline tag in the file, first occurrence first. */
  tags: string[];
}

const TOP_HEADING = /^# ([^\r\n]*)(\r?\n|$)/;
const INLINE_HEADING = /^# ([^\r\n]*\S[^\r\n]*)$/m;

export function parseEntry(text: string): ParsedEntry {
  const tags = uniqueTags(text);
  const top = TOP_HEADING.exec(text);
  if (top && (top[1] as string).trim() !== '') {
    let rest = text.slice(top[0].length);
    if (rest.startsWith('\n')) rest = rest.slice(1);
    else if (rest.startsWith('\r\n')) rest = rest.slice(2);
    let tagLine: string[] = [];
    const lineEnd = rest.indexOf('\n\n');
    if (lineEnd > 0) {
      const candidate = parseTagLine(rest.slice(0, lineEnd));
      if (candidate) {
        tagLine = candidate;
        rest = rest.slice(lineEnd + 2);
      }
    }
    return { shape: 'top', title: top[1] as string, tagLine, content: rest, tags };
  }
  const inline = INLINE_HEADING.exec(text);
  return { shape: inline ? 'inline' : 'none', title: inline?.[1], tagLine: [], content: text, tags };
}

/** What `capture` writes and every title or tag change rewrites a file to. */
export function renderEntry(title: string, tags: readonly string[], content: string): string {
  const tagLine = tags.length ? `${tags.map((t) => `#${t}`).join(' ')}\n\n` : '';
  return `# ${title}\n\n${tagLine}${content}`;
}

/**
 * The new text of an entry after a change. Content-only edits of a file without a top heading
 * keep it as written; a title or tag change rewrites it to the canonical shape, moving an
 * inline heading to the top.
 */
export function applyChange(
  parsed: ParsedEntry,
  fallbackTitle: string,
  change: { title?: string; content?: string; tags?: readonly string[] },
): string {
  if (parsed.shape === 'top') {
    return renderEntry(
      change.title ?? (parsed.title as string),
      change.tags ?? parsed.tagLine,
      change.content ?? parsed.content,
    );
  }
  const content = change.content ?? parsed.content;
  if (change.title === undefined && change.tags === undefined) return content;
  const withoutHeading =
    parsed.shape === 'inline' && change.content === undefined
      ? content.replace(INLINE_HEADING, '').replace(/^\n+/, '')
      : content;
  return renderEntry(change.title ?? parsed.title ?? fallbackTitle, change.tags ?? [], withoutHeading);
}

export function assertTitle(title: string): string {
  if (title.trim() === '')
    throw new ValidationError('A title cannot be empty: it becomes the entry\'s "# heading".', { field: 'title' });
  if (/[\r\n]/.test(title))
    throw new ValidationError('A title is one line: it becomes the entry\'s "# heading".', { field: 'title' });
  if (title.includes('\0'))
    throw new ValidationError('title contains a NUL byte, which an entry file cannot hold.', { field: 'title' });
  return title;
}

/** Tags as written inline: `#` is optional on input, the rest must be a tag the parser reads back. */
export function normaliseTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.startsWith('#') ? raw.slice(1) : raw;
    if (!isTagName(tag)) {
      throw new ValidationError(
        `"${raw}" cannot be an inline tag: use letters, digits, "_", "-" or "/" with at least one letter, no spaces (e.g. "area__work").`,
        { field: 'tags', value: raw },
      );
    }
    if (!out.includes(tag)) out.push(tag);
  }
  return out;
}

function parseTagLine(line: string): string[] | undefined {
  const words = line.split(' ');
  if (!words.every((w) => w.startsWith('#') && isTagName(w.slice(1)))) return undefined;
  return words.map((w) => w.slice(1));
}

function uniqueTags(text: string): string[] {
  const seen = new Set<string>();
  for (const { tag } of extractTags(text)) seen.add(tag);
  return [...seen];
}
