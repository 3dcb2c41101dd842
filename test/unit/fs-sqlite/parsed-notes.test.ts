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
});
