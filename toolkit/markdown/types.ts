/** What the markdown scanner finds. Offsets are UTF-16 indices into the scanned text. */

/** Where a match sits: 1-based line and column, and its [start, end) offsets. */
export interface Position {
  line: number;
  column: number;
  start: number;
  end: number;
}

/**
 * A link to another note: `[[...]]` (`wikilink`), `![[...]]` (`embed`), or a markdown link
 * whose destination is a relative `.md` path (`markdown`).
 */
export interface NoteLink extends Position {
  kind: 'wikilink' | 'embed' | 'markdown';
  /** The matched text, exactly as written. */
  raw: string;
  /** The note named: before any `#` and `|`, trimmed (a decoded path for `markdown`). */
  target: string;
  /** Everything before the `|` (seed 000's `target_title`), trimmed. */
  targetText: string;
  heading: string | null;
  /** `[[Note#^id]]` → `id`. */
  block: string | null;
  /** Display text after `|` (wikilinks) or the link text (markdown); null when absent. */
  alias: string | null;
  /** `id__XXXXXX` when the target is an id reference (seed 002). */
  idRef: string | null;
  /** `[[a\|b]]` inside a table: the pipe was escaped and must stay escaped when rewritten. */
  escapedPipe: boolean;
  /** markdown links: offsets of the destination inside the document, for rewriting it. */
  destination: { start: number; end: number } | null;
}

/** seed 000's `external_links.link_type`. */
export type ExternalKind = 'url' | 'image' | 'embed';

/** A link out of the vault (or to a non-note file): markdown links, images, bare URLs, attachment embeds. */
export interface ExternalLink extends Position {
  kind: ExternalKind;
  raw: string;
  url: string;
  /** Link text or image alt text; null for bare URLs. */
  title: string | null;
}

export interface InlineTag extends Position {
  /** Without the leading `#`, as written. */
  tag: string;
  raw: string;
}

export interface ScanResult {
  links: NoteLink[];
  externals: ExternalLink[];
  tags: InlineTag[];
}
