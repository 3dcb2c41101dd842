import { describe, expect, it } from 'vitest';
import { ParsedNotes } from '../../../backends/fs-sqlite/parsed-notes.js';
import type { Note } from '../../../kernel/note.js';

function note(id: string, chars: number): Note {
  return { id, title: 't', content: 'x'.repeat(chars), tags: [], metadata: {}, created: '', updated: '', contentHash: id, path: id, filename: id, size: chars };
}

describe('ParsedNotes', () => {
  it('is bounded by content size as well as by count, least recently used out', () => {
    const cache = new ParsedNotes(100, 1000);
    for (let i = 0; i < 10; i++) cache.set(`n${i}`, 'k', note(`n${i}`, 99));
    expect(cache.get('n0', 'k')).toBeDefined(); // touched: now the most recent
    cache.set('n10', 'k', note('n10', 99));
    expect(cache.get('n1', 'k')).toBeUndefined();
    expect(cache.get('n0', 'k')).toBeDefined();
    expect(cache.get('n10', 'k')).toBeDefined();
  });

  it('does not cache one note larger than an eighth of the budget', () => {
    const cache = new ParsedNotes(100, 1000);
    cache.set('small', 'k', note('small', 10));
    cache.set('huge', 'k', note('huge', 500));
    expect(cache.get('huge', 'k')).toBeUndefined();
    expect(cache.get('small', 'k')).toBeDefined();
  });

  it('keeps a whole 10,000-note vault of 1.7 KB notes with its default bounds', () => {
    // The flint bench's vault: at the old 4,096 entries, random reads of it mostly missed.
    const cache = new ParsedNotes();
    for (let i = 0; i < 10_000; i++) cache.set(`n${i}`, 'k', note(`n${i}`, 1700));
    for (let i = 0; i < 10_000; i++) expect(cache.get(`n${i}`, 'k')).toBeDefined();
  });

  it('still lets the content bound evict before the count bound is reached', () => {
    const cache = new ParsedNotes(undefined, 10_000);
    for (let i = 0; i < 20; i++) cache.set(`n${i}`, 'k', note(`n${i}`, 999));
    expect(cache.get('n0', 'k')).toBeUndefined();
    expect(cache.get('n19', 'k')).toBeDefined();
  });
});
