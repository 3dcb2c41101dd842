import { describe, expect, it } from 'vitest';
import {
  extractTags,
  isTagName,
  scanMarkdown,
  type ExternalLink,
  type NoteLink,
} from '../../../toolkit/markdown/index.js';
import { PARSER_CASES } from './parser-cases.js';

function summariseLink(link: NoteLink): string {
  const anchor = link.heading !== null ? `#${link.heading}` : link.block !== null ? `^${link.block}` : '';
  const alias = link.alias !== null ? `|${link.alias}` : '';
  const id = link.idRef !== null ? ` id=${link.idRef}` : '';
  return `${link.kind} ${link.target}${anchor}${alias}${id}`;
}

function summariseExternal(link: ExternalLink): string {
  return `${link.kind} ${link.url}${link.title !== null ? ` "${link.title}"` : ''}`;
}

describe('markdown scanner: the case table', () => {
  it('has at least 60 cases', () => {
    expect(PARSER_CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(PARSER_CASES.map((c) => c.name)).size).toBe(PARSER_CASES.length);
  });

  it.each(PARSER_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const result = scanMarkdown(c.text);
    expect(result.links.map(summariseLink)).toEqual(c.links ?? []);
    expect(result.externals.map(summariseExternal)).toEqual(c.externals ?? []);
    expect(result.tags.map((t) => t.tag)).toEqual(c.tags ?? []);
    if (c.at) {
      const all = [...result.links, ...result.externals, ...result.tags].sort((a, b) => a.start - b.start);
      expect(all.map((m) => `${m.line}:${m.column}`)).toEqual(c.at);
    }
    // Every match's offsets cut exactly its raw text out of the document.
    for (const m of [...result.links, ...result.externals, ...result.tags])
      expect(c.text.slice(m.start, m.end)).toBe(m.raw);
    // The tags-only scan, which skips texts where no tag can start, finds the same tags.
    expect(extractTags(c.text)).toEqual(result.tags);
  });
});

describe('markdown scanner: details', () => {
  it('keeps target_title (before the pipe) and the escaped pipe flag', () => {
    const [link] = scanMarkdown('| [[Target#Part\\|alias]] |').links;
    expect(link).toMatchObject({
      targetText: 'Target#Part',
      target: 'Target',
      heading: 'Part',
      alias: 'alias',
      escapedPipe: true,
    });
  });

  it('records the destination offsets of markdown links to notes', () => {
    const text = 'x [plan](<my plan.md>) y';
    const [link] = scanMarkdown(text).links;
    expect(link?.destination && text.slice(link.destination.start, link.destination.end)).toBe('<my plan.md>');
  });

  it('counts columns in UTF-16 units after astral characters', () => {
    const [link] = scanMarkdown('🚀 [[A]]').links;
    expect(link).toMatchObject({ line: 1, column: 4, start: 3 });
  });

  it('validates tag names for rename_tag', () => {
    expect(['work', 'area__work', 'a/b', '1st', 'café'].every(isTagName)).toBe(true);
    expect(['', '123', 'ff0000', 'a b', '#x', '/a', 'a//b'].some(isTagName)).toBe(false);
  });

  it('scans a megabyte of links, code spans and an unclosed backtick per line (its speed: test/bench/time-bounds.ts)', () => {
    const chunk =
      'Some text [[Link One]] and `code [[x]]` #tag https://e.com/a ![i](p.png) [m](https://m.e) `unclosed\n';
    const text = chunk.repeat(Math.ceil(1_000_000 / chunk.length));
    const result = scanMarkdown(text);
    expect(result.links.length).toBeGreaterThan(5000);
  });
});
