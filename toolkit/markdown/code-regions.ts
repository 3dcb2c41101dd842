/**
 * Where code is: fenced blocks (``` and ~~~) and inline code spans. Links and tags found inside
 * these ranges are not links or tags; every scanner asks `overlaps()` before keeping a match.
 *
 * Deliberate simplifications (docs/decisions/002-links-and-tags.md): a fence may be indented
 * by any amount (fences inside list items are common in real vaults), indented code blocks
 * are not code (they collide with nested lists far more often than they hold links), and a
 * code span never crosses a blank line (CommonMark: it cannot leave its paragraph).
 */

/** A half-open range [start, end) of UTF-16 offsets. */
export interface Range {
  start: number;
  end: number;
}

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const PARAGRAPH_BREAK = /\n[ \t]*(?:\n|$)/g;

/** Sorted, non-overlapping ranges of fenced blocks and inline code spans. */
export function codeRanges(text: string): Range[] {
  const fences = fencedRanges(text);
  const out: Range[] = [];
  let from = 0;
  for (const fence of fences) {
    inlineSpans(text, from, fence.start, out);
    out.push(fence);
    from = fence.end;
  }
  inlineSpans(text, from, text.length, out);
  return out;
}

function fencedRanges(text: string): Range[] {
  const out: Range[] = [];
  let open: { start: number; char: string; length: number } | undefined;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    // Cheap pre-check: only lines whose first non-blank character is ` or ~ can be fences.
    let i = lineStart;
    while (i < lineEnd && (text[i] === ' ' || text[i] === '\t')) i++;
    const first = text[i];
    if (first === '`' || first === '~') {
      const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
      const match = FENCE_OPEN.exec(line);
      if (match) {
        const marker = match[1] as string;
        const rest = match[2] ?? '';
        if (!open) {
          // A backtick fence's info string may not contain backticks (CommonMark).
          if (!(marker[0] === '`' && rest.includes('`')))
            open = { start: lineStart, char: marker[0] as string, length: marker.length };
        } else if (marker[0] === open.char && marker.length >= open.length && rest.trim() === '') {
          out.push({ start: open.start, end: lineEnd });
          open = undefined;
        }
      }
    }
    lineStart = lineEnd + 1;
  }
  // An unclosed fence runs to the end of the document (CommonMark).
  if (open) out.push({ start: open.start, end: text.length });
  return out;
}

/** Inline code spans in [from, to): a run of N backticks closed by the next run of exactly N. */
function inlineSpans(text: string, from: number, to: number, out: Range[]): void {
  let i = from;
  let paragraphEnd = -1;
  while (i < to) {
    let open = text.indexOf('`', i);
    if (open === -1 || open >= to) return;
    let runEnd = open;
    while (runEnd < to && text[runEnd] === '`') runEnd++;
    // A backslash escapes the first backtick of a run: the rest may still open a span.
    if (open > 0 && text[open - 1] === '\\' && !(open > 1 && text[open - 2] === '\\')) open++;
    const length = runEnd - open;
    if (length === 0) {
      i = runEnd;
      continue;
    }
    if (paragraphEnd < runEnd) paragraphEnd = nextParagraphBreak(text, runEnd, to);
    const close = closingRun(text, runEnd, Math.min(paragraphEnd, to), length);
    if (close === -1) {
      i = runEnd;
      continue;
    }
    out.push({ start: open, end: close + length });
    i = close + length;
  }
}

function nextParagraphBreak(text: string, from: number, to: number): number {
  PARAGRAPH_BREAK.lastIndex = from;
  const match = PARAGRAPH_BREAK.exec(text);
  return match && match.index < to ? match.index : to;
}

function closingRun(text: string, from: number, limit: number, length: number): number {
  let i = from;
  while (i < limit) {
    const start = text.indexOf('`', i);
    if (start === -1 || start >= limit) return -1;
    let end = start;
    while (end < limit && text[end] === '`') end++;
    if (end - start === length) return start;
    i = end;
  }
  return -1;
}

/**
 * Answers "does [start, end) touch any range?" for queries in ascending `start` order, in
 * amortised O(1): the cursor only moves forward.
 */
export class RangeCursor {
  private index = 0;

  constructor(private readonly ranges: readonly Range[]) {}

  overlaps(start: number, end: number): boolean {
    const ranges = this.ranges;
    while (this.index < ranges.length && (ranges[this.index] as Range).end <= start) this.index++;
    for (let k = this.index; k < ranges.length; k++) {
      const range = ranges[k] as Range;
      if (range.start >= end) return false;
      if (range.end > start) return true;
    }
    return false;
  }
}

/**
 * Merges sorted range lists into one sorted list (overlaps are kept; the cursor copes). Most
 * notes have ranges of one kind only: that list is returned as it is, and two are merged in
 * one walk (sorting a copy at every scan was a tenth of a 100,000-note build's link extraction).
 */
export function mergeRanges(...lists: readonly Range[][]): readonly Range[] {
  const filled = lists.filter((list) => list.length > 0);
  if (filled.length <= 1) return filled[0] ?? [];
  let merged: readonly Range[] = filled[0] as readonly Range[];
  for (let k = 1; k < filled.length; k++) merged = mergeTwo(merged, filled[k] as readonly Range[]);
  return merged;
}

function mergeTwo(a: readonly Range[], b: readonly Range[]): Range[] {
  const out: Range[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as Range;
    const y = b[j] as Range;
    if (x.start < y.start || (x.start === y.start && x.end <= y.end)) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  while (i < a.length) out.push(a[i++] as Range);
  while (j < b.length) out.push(b[j++] as Range);
  return out;
}
