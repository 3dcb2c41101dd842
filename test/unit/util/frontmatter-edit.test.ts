/** replaceFrontmatter: only the lines of changed keys are rewritten; the body is kept byte for byte. */
import { describe, expect, it } from 'vitest';
import {
  composeMarkdown,
  editableFrontmatter,
  loadYamlBounded,
  replaceFrontmatter,
} from '../../../toolkit/markdown/frontmatter.js';
import { aliasBomb } from '../../support/hostile.js';

const NOTE =
  '---\n# a comment\ntags: [a, b]   # flow list\nstatus: "draft"\nnested:\n  k: 1\n  list:\n    - x\nDate: 2024-01-02\n---\nbody without a blank line\n\n---\nnot frontmatter\n';

describe('replaceFrontmatter', () => {
  it('rewrites a changed key in place and keeps every other line, the comments and the body', () => {
    const meta = editableFrontmatter(NOTE, 'n.md');
    const out = replaceFrontmatter(NOTE, { ...meta, status: 'done' });
    expect(out).toBe(NOTE.replace('status: "draft"', 'status: done'));
  });

  it('removes a key with its continuation lines, appends a new key at the end', () => {
    const { nested: _dropped, ...rest } = editableFrontmatter(NOTE, 'n.md');
    const out = replaceFrontmatter(NOTE, { ...rest, added: ['p', 'q'] });
    expect(out).toBe(
      '---\n# a comment\ntags: [a, b]   # flow list\nstatus: "draft"\nDate: 2024-01-02\nadded:\n  - p\n  - q\n---\nbody without a blank line\n\n---\nnot frontmatter\n',
    );
  });

  it('is the identity when nothing changes, CRLF included', () => {
    const crlf = NOTE.replace(/\n/g, '\r\n');
    expect(replaceFrontmatter(NOTE, editableFrontmatter(NOTE, 'n.md'))).toBe(NOTE);
    expect(replaceFrontmatter(crlf, editableFrontmatter(crlf, 'n.md'))).toBe(crlf);
    expect(replaceFrontmatter(crlf, { ...editableFrontmatter(crlf, 'n.md'), status: 'x' })).toBe(
      crlf.replace('status: "draft"', 'status: x'),
    );
  });

  it('adds frontmatter to a note without any, the text kept after it', () => {
    expect(replaceFrontmatter('# Title\n\ntext', { a: 1 })).toBe('---\na: 1\n---\n\n# Title\n\ntext');
    expect(replaceFrontmatter('# Title\n', {})).toBe('# Title\n');
  });

  it('falls back to a full dump that reads back the same when the layout cannot be edited line by line', () => {
    const flow = '---\n{a: 1, b: 2}\n---\nbody\n';
    const out = replaceFrontmatter(flow, { a: 1, b: 3 });
    expect(out.endsWith('---\nbody\n')).toBe(true);
    expect(loadYamlBounded(out.split('---\n')[1]!)).toEqual({ a: 1, b: 3 });
  });

  it('refuses to edit frontmatter that is not YAML or past a bound, naming it', () => {
    expect(() => editableFrontmatter('---\na: [\n---\n', 'bad.md')).toThrow(/bad\.md cannot be edited/);
    expect(() => editableFrontmatter(`---\n${aliasBomb()}---\n`, 'bomb.md')).toThrow(/cannot be edited/);
    expect(() => composeMarkdown({ deep: JSON.parse('['.repeat(80) + ']'.repeat(80)) as [] }, '')).toThrow(
      /nests deeper/,
    );
  });
});
