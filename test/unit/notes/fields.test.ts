/** seed 000's field filtering rules, on the get_note shape. */
import { describe, expect, it } from 'vitest';
import { filterFields } from '../../../toolkit/fields.js';

const note = {
  id: 'general/my-note.md',
  type: 'general',
  title: 'My Note',
  content: 'Body',
  content_hash: 'sha256:abc',
  metadata: { tags: ['example', 'test'], status: 'draft', priority: 2 },
  created: '2024-01-15T10:30:00Z',
  updated: '2024-01-15T14:20:00Z',
};

describe('filterFields', () => {
  it('returns everything when fields is omitted', () => {
    expect(filterFields(note, undefined)).toBe(note);
  });

  it('matches the seed example: core fields and metadata.x', () => {
    expect(filterFields(note, ['id', 'title', 'content_hash', 'metadata.tags', 'metadata.status'])).toEqual({
      id: 'general/my-note.md',
      title: 'My Note',
      content_hash: 'sha256:abc',
      metadata: { tags: ['example', 'test'], status: 'draft' },
    });
  });

  it('expands metadata.* to all metadata', () => {
    expect(filterFields(note, ['id', 'metadata.*'])).toEqual({ id: note.id, metadata: note.metadata });
  });

  it('ignores unknown names, missing metadata keys, a bare "metadata." and other cases of a name', () => {
    expect(
      filterFields(note, ['title', 'nonsense', 'metadata.missing', 'metadata.', 'metadata.Tags', 'Title']),
    ).toEqual({ title: 'My Note' });
  });

  it('keeps only id for an empty list', () => {
    expect(filterFields(note, [])).toEqual({ id: note.id });
  });

  it('keeps the always-included fields', () => {
    expect(filterFields({ ...note, score: 1 }, ['title'], ['score'])).toEqual({ score: 1, title: 'My Note' });
  });
});
