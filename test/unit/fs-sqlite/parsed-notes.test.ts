import { describe, expect, it } from 'vitest';
import { ParsedNotes } from '../../../backends/fs-sqlite/parsed-notes.js';
import type { Note } from '../../../kernel/note.js';

/** A note whose file is `frontmatter` characters of frontmatter followed by its content. */
function note(id: string, frontmatter: number, content = `body of ${id}`): Note {
  return {
    id,
    title: 't',
    content,
    tags: ['a'],
    metadata: { title: 't', tags: ['a'] },
    created: '',
    updated: '',
    contentHash: id,
    path: id,
    filename: id,
    size: frontmatter + content.length,
  };
}

/** The file text `note()` describes. */
function textOf(n: Note): () => string {
  return () => '-'.repeat((n.size ?? 0) - n.content.length) + n.content;
}

describe('ParsedNotes', () => {
  it('is bounded by frontmatter size as well as by count, least recently used out', () => {
    const cache = new ParsedNotes(100, 1000);
    const notes = Array.from({ length: 11 }, (_, i) => note(`n${i}`, 98));
    for (const n of notes.slice(0, 10)) cache.set(n.id, 'k', n);
    expect(cache.get('n0', 'k', textOf(notes[0] as Note))).toBeDefined(); // touched: now the most recent
    cache.set('n10', 'k', notes[10] as Note);
    expect(cache.get('n1', 'k', textOf(notes[1] as Note))).toBeUndefined();
    expect(cache.get('n0', 'k', textOf(notes[0] as Note))).toBeDefined();
    expect(cache.get('n10', 'k', textOf(notes[10] as Note))).toBeDefined();
  });

  it('does not cache one note whose frontmatter is larger than an eighth of the budget', () => {
    const cache = new ParsedNotes(100, 1000);
    const small = note('small', 10);
    cache.set('small', 'k', small);
    cache.set('huge', 'k', note('huge', 500));
    expect(cache.get('huge', 'k', () => 'x')).toBeUndefined();
    expect(cache.get('small', 'k', textOf(small))).toBeDefined();
  });

  it('keeps no content: a hit takes it from the tail of the text just read', () => {
    const cache = new ParsedNotes();
    const original = note('a', 40, 'the body\n\nsecond paragraph');
    cache.set('a', 'k', original);
    const hit = cache.get('a', 'k', textOf(original));
    expect(hit).toEqual(original);
    expect(cache.get('a', 'k', () => '---\nx: 1\n---\n\nthe body\n\nsecond paragraph')?.content).toBe(
      'the body\n\nsecond paragraph',
    );
    expect(cache.get('a', 'k', () => undefined)).toBeUndefined(); // bytes that do not decode: no hit
    expect(cache.get('a', 'other', textOf(original))).toBeUndefined();
    hit!.metadata.title = 'edited by a caller';
    expect(cache.get('a', 'k', textOf(original))?.metadata.title).toBe('t');
  });

  it('keeps its 4,096 most recent notes by default, whatever their bodies weigh', () => {
    const cache = new ParsedNotes();
    // 5,000 notes of 8 KB bodies: 40 M characters of content, none of it counted against the 8 M bound.
    const notes = Array.from({ length: 5_000 }, (_, i) => note(`n${i}`, 250, 'x'.repeat(8_000)));
    for (const n of notes) cache.set(n.id, 'k', n);
    expect(cache.get('n903', 'k', textOf(notes[903] as Note))).toBeUndefined();
    for (const n of notes.slice(904)) expect(cache.get(n.id, 'k', textOf(n))?.content).toBe(n.content);
  });

  it('lets the frontmatter bound evict before the count bound is reached', () => {
    const cache = new ParsedNotes(undefined, 10_000);
    const notes = Array.from({ length: 20 }, (_, i) => note(`n${i}`, 999));
    for (const n of notes) cache.set(n.id, 'k', n);
    expect(cache.get('n0', 'k', textOf(notes[0] as Note))).toBeUndefined();
    expect(cache.get('n19', 'k', textOf(notes[19] as Note))).toBeDefined();
  });
});
