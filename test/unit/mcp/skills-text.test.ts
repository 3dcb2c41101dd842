/** The pieces the skills are made of: names the SDK accepts, and READMEs read as blocks. */
import { describe, expect, it } from 'vitest';
import { fitDescription, parseMarkdown, skillMarkdown, slug, tableRows } from '../../../app/mcp/skills/markdown.js';
import { skillNames } from '../../../app/mcp/skills/note-types.js';

const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

describe('skill names for note types', () => {
  it('are the type names made fit for the name rule', () => {
    const names = skillNames(['reading', 'Book_Club', 'café', 'a--b']);
    expect(Object.fromEntries(names)).toEqual({
      reading: 'note-type-reading',
      Book_Club: 'note-type-book-club',
      café: 'note-type-cafe',
      'a--b': 'note-type-a-b',
    });
  });

  it('stay unique and valid where two types meet or nothing of a name is left', () => {
    const types = ['Reading', 'reading', '读书', '日记', 'x'.repeat(64)];
    const names = skillNames(types);
    expect(new Set(names.values()).size).toBe(types.length);
    for (const name of names.values()) {
      expect(name).toMatch(SKILL_NAME);
      expect(name.length).toBeLessThanOrEqual(64);
    }
    // Stable: the same type gets the same name on every build, whatever else is listed.
    expect(skillNames(['读书']).get('读书')).toBe(names.get('读书'));
  });

  it('slug drops what the rule does not allow', () => {
    expect(slug('  Hello, World!  ')).toBe('hello-world');
    expect(slug('日記')).toBe('');
  });
});

describe('SKILL.md', () => {
  it('carries any description as one quoted line within the bound', () => {
    const text = skillMarkdown('x', 'say "hi": #not-a-comment\nnext line', ['# X', 'body']);
    expect(text).toBe('---\nname: x\ndescription: "say \\"hi\\": #not-a-comment next line"\n---\n\n# X\n\nbody\n');
    expect([...fitDescription('é'.repeat(2000))]).toHaveLength(1024);
  });

  it('refuses a name outside the rule', () => {
    expect(() => skillMarkdown('Note_Types', 'd', [])).toThrow(/not a skill name/);
  });
});

describe('markdown blocks', () => {
  it('splits at ## headings and blank lines, keeping a fenced block whole', () => {
    const doc = parseMarkdown(
      '# T\n\nintro\nmore\n\n## Layout\n\n```\na\n\nb\n```\n\n## Tools\n\n| a | b |\n|---|---|\n| `x` | y \\| z |\n',
    );
    expect(doc.intro).toEqual(['intro\nmore']);
    expect(doc.sections.get('layout')).toEqual(['```\na\n\nb\n```']);
    expect(tableRows(doc.sections.get('tools')![0]!)).toEqual([['`x`', 'y \\| z']]);
  });
});
