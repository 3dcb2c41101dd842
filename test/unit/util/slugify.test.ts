import { describe, expect, it } from 'vitest';
import { NOTE_SLUG } from '../../../backends/fs-sqlite/layout.js';
import { ENTRY_SLUG } from '../../../toolkit/agent-memory/entry-name.js';
import { slugify } from '../../../toolkit/slugify.js';

// The two implementations the shared one replaced (fs-sqlite's layout.ts and markdown-git's
// entry-name.ts), kept here as oracles: each backend's filenames must not change.
function formerNoteSlug(title: string): string {
  const slug = title
    .normalize('NFC')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^[-_]+|-+$/g, '');
  const capped = [...slug].slice(0, 100).join('').replace(/-+$/, '');
  return capped || 'untitled';
}

function formerEntrySlug(title: string): string {
  const slug = title
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const capped = [...slug].slice(0, 80).join('').replace(/-+$/, '');
  return capped || 'untitled';
}

const TITLES = [
  'Hello, World!',
  'Ünïcødé Straße',
  '日本語 の ノート',
  'Привет, мир',
  'Ελληνικά 2024',
  '  spaced   out  ',
  'a -- b',
  'under_score kept',
  '_leading underscore',
  '__init__',
  '"Quotes" & (parens) / slashes: #1?',
  '../../etc/passwd',
  'dots.and.more',
  'tabs\tand\nnewlines',
  'Cafe\u0301',
  '',
  '   ',
  '!!!',
  '🎉🎉',
  '---',
  '.',
  '.hidden',
  'a/b\\c',
  'x\u0000y',
  '\uFEFFbom first',
  'nbsp\u00A0between',
  'a'.repeat(150),
  'ab '.repeat(60),
  'a'.repeat(99) + '𝒳𝒳',
  'b'.repeat(79) + '𝒳𝒳',
  'ÉCOLE Été',
  'İstanbul',
  'Meeting 2024-05-01: plan & review',
];

describe('slugify', () => {
  it.each(TITLES)('whitespace rule (fs-sqlite) matches the former implementation for %j', (title) => {
    expect(slugify(title, NOTE_SLUG)).toBe(formerNoteSlug(title));
  });

  it.each(TITLES)('non-alphanumeric rule (markdown-git) matches the former implementation for %j', (title) => {
    expect(slugify(title, ENTRY_SLUG)).toBe(formerEntrySlug(title));
  });

  it('the two rules differ where the seeds differ: punctuation and underscores', () => {
    expect(slugify('dots.and_more', NOTE_SLUG)).toBe('dotsand_more');
    expect(slugify('dots.and_more', ENTRY_SLUG)).toBe('dots-and-more');
    expect(slugify('a'.repeat(120), NOTE_SLUG)).toHaveLength(100);
    expect(slugify('a'.repeat(120), ENTRY_SLUG)).toHaveLength(80);
  });

  it('fits a file name in bytes: 120 CJK characters are cut to 200 UTF-8 bytes, whole characters', () => {
    for (const rule of [NOTE_SLUG, ENTRY_SLUG]) {
      const slug = slugify('知'.repeat(120), rule);
      expect(Buffer.byteLength(slug, 'utf8')).toBeLessThanOrEqual(200);
      expect(slug).toBe('知'.repeat(66));
      expect(slugify('𠀀'.repeat(60), rule)).toBe('𠀀'.repeat(50)); // 4 bytes each, never split
    }
  });

  it('never starts with a dash, an underscore or a dot, never ends with a dash', () => {
    for (const rule of [NOTE_SLUG, ENTRY_SLUG]) {
      for (const title of TITLES) expect(slugify(title, rule)).not.toMatch(/^[-_.]|-$/);
    }
  });
});
