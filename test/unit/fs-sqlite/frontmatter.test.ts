import { describe, expect, it } from 'vitest';
import { parseMarkdown, serializeMarkdown } from '../../../backends/fs-sqlite/frontmatter.js';
import type { Metadata } from '../../../kernel/note.js';

describe('parseMarkdown', () => {
  it('reads a mapping and drops the one blank separator line', () => {
    const parsed = parseMarkdown('---\ntitle: Hello\ntags: [a, b]\ncount: 3\n---\n\nBody line\n');
    expect(parsed).toEqual({
      metadata: { title: 'Hello', tags: ['a', 'b'], count: 3 },
      body: 'Body line\n',
      hasFrontmatter: true,
      warnings: [],
    });
  });

  it('keeps any further blank lines as content', () => {
    expect(parseMarkdown('---\na: 1\n---\n\n\n\nbody').body).toBe('\n\nbody');
    expect(parseMarkdown('---\na: 1\n---\nbody right after').body).toBe('body right after');
  });

  it('serves a file without frontmatter whole', () => {
    for (const text of [
      'just a body\n',
      '',
      'no newline',
      '\n---\na: 1\n---\nnot at the start',
      '---\nunterminated: yes\nbody\n',
    ]) {
      expect(parseMarkdown(text), JSON.stringify(text)).toEqual({
        metadata: {},
        body: text,
        hasFrontmatter: false,
        warnings: [],
      });
    }
  });

  it('accepts empty and null frontmatter without a warning', () => {
    expect(parseMarkdown('---\n---\nbody')).toEqual({ metadata: {}, body: 'body', hasFrontmatter: true, warnings: [] });
    expect(parseMarkdown('---\n\n---\n\nbody')).toEqual({
      metadata: {},
      body: 'body',
      hasFrontmatter: true,
      warnings: [],
    });
    expect(parseMarkdown('---\nnull\n---\nbody')).toEqual({
      metadata: {},
      body: 'body',
      hasFrontmatter: true,
      warnings: [],
    });
  });

  it('a closing fence at the very end or with trailing spaces still closes', () => {
    expect(parseMarkdown('---\na: 1\n---')).toMatchObject({ metadata: { a: 1 }, body: '', hasFrontmatter: true });
    expect(parseMarkdown('---\na: 1\n---  \nbody')).toMatchObject({ metadata: { a: 1 }, body: 'body' });
  });

  it('invalid YAML: no throw, empty metadata, a warning, the body intact', () => {
    const parsed = parseMarkdown('---\ntitle: [unclosed\nother: {\n---\n\nThe body survives.\n');
    expect(parsed.metadata).toEqual({});
    expect(parsed.body).toBe('The body survives.\n');
    expect(parsed.hasFrontmatter).toBe(true);
    expect(parsed.warnings).toHaveLength(1);
    expect(parsed.warnings[0]).toMatch(/^frontmatter is not valid YAML \(.+\); metadata ignored$/);
    expect(parsed.warnings[0]).not.toContain('\n');
  });

  it.each([
    ['a sequence', '- one\n- two'],
    ['a plain scalar', 'just words'],
    ['a number', '42'],
  ])('non-mapping frontmatter (%s): a warning, the body intact', (_label, yaml) => {
    const parsed = parseMarkdown(`---\n${yaml}\n---\n\nbody\n`);
    expect(parsed).toEqual({
      metadata: {},
      body: 'body\n',
      hasFrontmatter: true,
      warnings: ['frontmatter is not a YAML mapping; metadata ignored'],
    });
  });

  it('reads CRLF files and keeps CRLF in the body', () => {
    const parsed = parseMarkdown(
      '---\r\ntitle: Windows\r\ntags:\r\n  - a\r\n  - b\r\n---\r\n\r\nline one\r\nline two\r\n',
    );
    expect(parsed).toEqual({
      metadata: { title: 'Windows', tags: ['a', 'b'] },
      body: 'line one\r\nline two\r\n',
      hasFrontmatter: true,
      warnings: [],
    });
  });

  it('keeps date-like values as the strings written, and nested values as plain data', () => {
    const parsed = parseMarkdown(
      '---\ncreated: 2024-01-02\nwhen: 2024-01-02T03:04:05Z\nnested:\n  list: [1, true, ~, {x: y}]\n---\n',
    );
    expect(parsed.metadata).toEqual({
      created: '2024-01-02',
      when: '2024-01-02T03:04:05Z',
      nested: { list: [1, true, null, { x: 'y' }] },
    });
  });

  it('a duplicated key is not fatal', () => {
    const parsed = parseMarkdown('---\na: 1\na: 2\n---\nbody');
    expect(parsed.body).toBe('body');
    expect(parsed.warnings).toEqual([]);
    expect(parsed.metadata.a).toBe(2);
  });
});

describe('serializeMarkdown', () => {
  it("puts flint's keys first in flint's order, the rest as given, skipping undefined", () => {
    const metadata = {
      zeta: 1,
      updated: 'u',
      tags: ['t'],
      title: 'T',
      created: 'c',
      alpha: undefined,
      type: 'general',
      filename: 'f',
    } as unknown as Metadata;
    const text = serializeMarkdown(metadata, 'body');
    const keys = text
      .split('\n')
      .filter((l) => /^\w+:/.test(l))
      .map((l) => l.split(':')[0]);
    expect(keys).toEqual(['title', 'filename', 'type', 'created', 'updated', 'zeta', 'tags']);
    expect(text.startsWith('---\n')).toBe(true);
    expect(text.endsWith('\n---\n\nbody')).toBe(true);
  });

  it('never folds long values', () => {
    const long = 'word '.repeat(80).trim();
    const text = serializeMarkdown({ title: long }, '');
    expect(text).toContain(`title: ${long}\n`);
  });

  const bodies = [
    '',
    'plain',
    'trailing\n\n',
    '\nleading blank',
    '---\nlooks: like frontmatter\n---\n',
    'crlf\r\nbody\r\n',
    'ünï 🎉',
  ];
  it.each(bodies.map((b) => [JSON.stringify(b), b]))('round-trips body %s exactly', (_label, body) => {
    const metadata: Metadata = {
      title: 'T',
      n: 1,
      list: ['a', { b: null }],
      nested: { deep: { x: false } },
      s: 'a: "b" #c',
      multi: 'l1\nl2\n',
      empty: [],
      map: {},
    };
    expect(parseMarkdown(serializeMarkdown(metadata, body!))).toEqual({
      metadata,
      body,
      hasFrontmatter: true,
      warnings: [],
    });
  });

  it.each([
    ['123'],
    ['true'],
    ['null'],
    ['~'],
    ['  padded  '],
    ['- dash'],
    ['@at'],
    ['`tick`'],
    ['%pct'],
    ['key: value'],
    ['# not a comment'],
  ])('round-trips the awkward string %j', (value) => {
    expect(parseMarkdown(serializeMarkdown({ title: value, other: value }, 'b')).metadata).toEqual({
      title: value,
      other: value,
    });
  });

  // The closing fence is a line of its own: a "---" that ends some line of the YAML must not
  // close it (an optional newline before the fence would).
  it('round-trips a plain value ending in " ---"', () => {
    const parsed = parseMarkdown(serializeMarkdown({ title: 'Pros and cons ---', tags: [] }, 'body\n'));
    expect(parsed).toEqual({
      metadata: { title: 'Pros and cons ---', tags: [] },
      body: 'body\n',
      hasFrontmatter: true,
      warnings: [],
    });
  });

  it('round-trips a block value holding a "---" line', () => {
    const parsed = parseMarkdown(serializeMarkdown({ title: 'T', notes: 'above\n---\nbelow' }, 'body\n'));
    expect(parsed).toEqual({
      metadata: { title: 'T', notes: 'above\n---\nbelow' },
      body: 'body\n',
      hasFrontmatter: true,
      warnings: [],
    });
  });
});
