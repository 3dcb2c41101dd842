/** Writing wikilinks back: shared by every plugin that rewrites links (links, obsidian-tools). */
import type { NoteLink } from './types.js';

/** Characters a wikilink target cannot hold: they would end or split the link. */
export function linkSafe(name: string): boolean {
  return name.trim() !== '' && !/[[\]|#^\n\r]/.test(name) && !name.startsWith('id__');
}

/** A wikilink with a new target and alias, keeping embed, heading/block and an escaped pipe. */
export function formatWikilink(link: NoteLink, target: string, alias: string | null): string {
  const anchor = link.heading !== null ? `#${link.heading}` : link.block !== null ? `#^${link.block}` : '';
  const pipe = link.escapedPipe ? '\\|' : '|';
  return `${link.kind === 'embed' ? '!' : ''}[[${target}${anchor}${alias !== null ? pipe + alias : ''}]]`;
}
