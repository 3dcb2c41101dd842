/**
 * The one markdown scanner for links and tags (the links and tags plugins both use it): code
 * regions first, then wikilinks, markdown links, bare URLs, and tags outside all of those.
 * One pass per construct over the whole text; no allocation per line.
 */
import { codeRanges, mergeRanges, type Range } from './code-regions.js';
import { LineIndex } from './line-index.js';
import { scanBareUrls, scanMarkdownLinks, scanWikilinks } from './links.js';
import { scanTags } from './tags.js';
import type { ExternalLink, InlineTag, NoteLink, ScanResult } from './types.js';

export type { ExternalLink, ExternalKind, InlineTag, NoteLink, Position, ScanResult } from './types.js';
export { isTagName, isHexColour, tagKey } from './tags.js';
export { ID_REF, parseInner } from './links.js';
export { codeRanges, type Range } from './code-regions.js';

export interface ScanOptions {
  /** Skip the tag scan (the links index does not need tags). */
  tags?: boolean;
  /** Skip the link scans (the tag index does not need links, but still masks them). */
  links?: boolean;
}

export function scanMarkdown(text: string, options: ScanOptions = {}): ScanResult {
  const lines = new LineIndex(text);
  const code = codeRanges(text);
  const links: NoteLink[] = [];
  const externals: ExternalLink[] = [];
  const tags: InlineTag[] = [];
  const wiki: Range[] = [];
  scanWikilinks(text, code, lines, links, externals, wiki);
  const markdown: Range[] = [];
  scanMarkdownLinks(text, mergeRanges(code, wiki), lines, links, externals, markdown);
  const urls: Range[] = [];
  scanBareUrls(text, mergeRanges(code, wiki, markdown), lines, externals, urls);
  if (options.tags !== false) scanTags(text, mergeRanges(code, wiki, markdown, urls), lines, tags);
  links.sort(byStart);
  externals.sort(byStart);
  return { links: options.links === false ? [] : links, externals: options.links === false ? [] : externals, tags };
}

/** What every tag starts with; a text without it has no tag to find, nor code or links to mask around one. */
const TAG_START = /#[\p{L}\p{N}\p{M}_/-]/u;

export function extractTags(text: string): InlineTag[] {
  if (!TAG_START.test(text)) return [];
  return scanMarkdown(text, { links: false }).tags;
}

function byStart(a: { start: number }, b: { start: number }): number {
  return a.start - b.start;
}
