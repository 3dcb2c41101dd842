/**
 * Inline `#tags` by seed 002's rules (and Obsidian's, where seed 002 is silent): `#` not
 * preceded by a word character, a slash, `#`, `&` or a backslash; then letters, digits, `_`, `-`
 * and `/` (`#area__work`, `#a/b`). Not a tag: a heading marker (`# Title`: a space follows),
 * anything in code, links or URLs (`https://x.y/#frag`), an HTML entity (`&#39;`), digits only
 * (`#2024`, `issue #5`), or a hex colour (`#ff0000`; see isHexColour for the exact rule).
 */
import { RangeCursor, type Range } from './code-regions.js';
import type { LineIndex } from './line-index.js';
import type { InlineTag } from './types.js';

const TAG = /(?<![^\s([{"'*,;!|>])#([\p{L}\p{N}\p{M}_/-]+)/gu;
const HAS_LETTER = /[\p{L}_]/u;
const HEX = /^[0-9a-f]+$/i;

export function scanTags(text: string, blocked: readonly Range[], lines: LineIndex, tags: InlineTag[]): void {
  const cursor = new RangeCursor(blocked);
  TAG.lastIndex = 0;
  for (let m = TAG.exec(text); m; m = TAG.exec(text)) {
    const tag = (m[1] as string).replace(/\/+$/, '');
    const start = m.index;
    const end = start + 1 + tag.length;
    if (!isTagName(tag) || cursor.overlaps(start, end)) continue;
    const line = lines.line(start);
    tags.push({ tag, raw: `#${tag}`, line, column: start - lines.lineStart(line) + 1, start, end });
  }
}

/** A tag name (without `#`) that the scanner would accept; also validates rename_tag's input. */
export function isTagName(tag: string): boolean {
  return (
    /^[\p{L}\p{N}\p{M}_/-]+$/u.test(tag) &&
    !tag.startsWith('/') &&
    !tag.includes('//') &&
    HAS_LETTER.test(tag) &&
    !isHexColour(tag)
  );
}

/**
 * `#ff0000`, `#1e90ff`, `#ffffff`, `#deadbeef` are colours; `#fff`, `#bad`, `#cafe` are words.
 * A run of 3, 4, 6 or 8 hex digits is a colour when it holds a digit or is 6 or 8 long.
 */
export function isHexColour(tag: string): boolean {
  if (!HEX.test(tag) || ![3, 4, 6, 8].includes(tag.length)) return false;
  return /\d/.test(tag) || tag.length >= 6;
}

/** Case- and Unicode-insensitive identity of a tag: `#Work` and `#work` are one tag. */
export function tagKey(tag: string): string {
  return tag.normalize('NFC').replace(/^#/, '').toLowerCase();
}
