/**
 * Splits a note into the passages that are embedded and keyword-indexed one by one: at headings
 * first, then at blank lines, packing paragraphs up to `maxChars` and cutting an over-long
 * paragraph at sentence ends (else at spaces). A passage is what a vector can still represent:
 * one 512-d vector per whole note blurs a long note into its average topic.
 */
export interface Chunk {
  /** The heading the passage sits under ('' before the first heading). */
  heading: string;
  text: string;
}

export const DEFAULT_CHUNK_CHARS = 1_000;

const HEADING = /^#{1,6}\s+(.*)$/;

export function chunkNote(content: string, maxChars = DEFAULT_CHUNK_CHARS): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sectionsOf(content)) {
    let current = '';
    const flush = () => {
      if (current.trim()) chunks.push({ heading: section.heading, text: current.trim() });
      current = '';
    };
    for (const paragraph of section.paragraphs) {
      for (const piece of paragraph.length > maxChars ? cut(paragraph, maxChars) : [paragraph]) {
        if (current && current.length + piece.length + 2 > maxChars) flush();
        current = current ? `${current}\n\n${piece}` : piece;
      }
    }
    // A heading with nothing under it is no passage: embedded alone, its few words came close to
    // many questions and were returned above real passages (issue 27).
    flush();
  }
  return chunks;
}

function sectionsOf(content: string): Array<{ heading: string; paragraphs: string[] }> {
  const sections: Array<{ heading: string; lines: string[] }> = [{ heading: '', lines: [] }];
  let fenced = false;
  for (const line of content.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : HEADING.exec(line);
    if (heading) sections.push({ heading: heading[1]!.trim(), lines: [] });
    else sections[sections.length - 1]!.lines.push(line);
  }
  return sections
    .map((s) => ({
      heading: s.heading,
      paragraphs: s.lines
        .join('\n')
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean),
    }))
    .filter((s) => s.heading || s.paragraphs.length);
}

/** An over-long paragraph in pieces of at most `maxChars`, cut after a sentence where one ends in range. */
function cut(paragraph: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let rest = paragraph;
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars);
    const sentenceEnd = Math.max(
      window.lastIndexOf('. '),
      window.lastIndexOf('? '),
      window.lastIndexOf('! '),
      window.lastIndexOf('\n'),
    );
    const space = window.lastIndexOf(' ');
    const at = sentenceEnd > maxChars / 2 ? sentenceEnd + 1 : space > maxChars / 2 ? space : maxChars;
    pieces.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}
