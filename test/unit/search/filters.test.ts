/**
 * Structured search: metadata predicates compared by their stored type, time windows,
 * content_contains, sorts over core and metadata fields, and the errors that name the member.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MetadataPredicate, SearchQuery } from '../../../kernel/backend.js';
import { ids, openSearchVault, type SearchVault } from './helpers.js';

let v: SearchVault;

beforeAll(async () => {
  v = await openSearchVault({
    'todos/a.md': {
      title: 'A',
      body: 'review the budget',
      yaml: 'status: in_progress\npriority: 10\ndue: 2024-06-01\ndone: false\ntags: [work, money]\n',
      created: '2024-01-01T00:00:00.000Z',
      updated: '2024-05-01T00:00:00.000Z',
    },
    'todos/b.md': {
      title: 'B',
      body: 'review the design',
      yaml: 'status: in_progress\npriority: 9\ndue: 2024-05-15\ndone: true\ntags: [work]\n',
      created: '2024-02-01T00:00:00.000Z',
      updated: '2024-05-02T00:00:00.000Z',
    },
    'todos/c.md': {
      title: 'C',
      body: 'write the report',
      yaml: 'status: completed\npriority: 2\ndue: 2024-07-01T12:00:00Z\ndone: true\ntags: [home]\n',
      created: '2024-03-01T00:00:00.000Z',
      updated: '2024-05-03T00:00:00.000Z',
    },
    'todos/d.md': {
      title: 'D',
      body: 'reviewed already',
      yaml: 'status: on_hold\npriority: "3"\nowner: null\n',
      created: '2024-04-01T00:00:00.000Z',
      updated: '2024-05-04T00:00:00.000Z',
    },
    'reading/e.md': {
      title: 'E',
      body: 'a book review',
      yaml: 'rating: 5\nstatus: in_progress\n',
      created: '2024-04-15T00:00:00.000Z',
      updated: '2024-05-05T00:00:00.000Z',
    },
  });
});

const find = async (query: Partial<SearchQuery>) =>
  ids(await v.search.search({ text: '', limit: 50, ...query })).sort();
const where = (...metadata: MetadataPredicate[]) => find({ metadata });

describe('metadata predicates, compared by stored type', () => {
  it('= on strings, and the default operator', async () => {
    expect(await where({ key: 'status', value: 'in_progress' })).toEqual(['reading/e.md', 'todos/a.md', 'todos/b.md']);
    expect(await where({ key: 'status', operator: '=', value: 'completed' })).toEqual(['todos/c.md']);
  });

  it('numbers as numbers (10 > 9), a quoted "3" stays a string', async () => {
    expect(await where({ key: 'priority', operator: '>=', value: 9 })).toEqual(['todos/a.md', 'todos/b.md']);
    expect(await where({ key: 'priority', operator: '>=', value: '3' })).toEqual([
      'todos/a.md',
      'todos/b.md',
      'todos/d.md',
    ]);
    expect(await where({ key: 'priority', operator: '<', value: 3 })).toEqual(['todos/c.md']);
    expect(await where({ key: 'priority', operator: '=', value: '10.0' })).toEqual(['todos/a.md']);
  });

  it('dates as instants, whatever their spelling', async () => {
    expect(await where({ key: 'due', operator: '<', value: '2024-06-01' })).toEqual(['todos/b.md']);
    expect(await where({ key: 'due', operator: '>=', value: '2024-06-01T00:00:00Z' })).toEqual([
      'todos/a.md',
      'todos/c.md',
    ]);
    expect(await where({ key: 'due', operator: '>', value: '2024-07-01T11:59:59Z' })).toEqual(['todos/c.md']);
  });

  it('booleans, nulls, list elements', async () => {
    expect(await where({ key: 'done', value: true })).toEqual(['todos/b.md', 'todos/c.md']);
    expect(await where({ key: 'done', value: 'FALSE' })).toEqual(['todos/a.md']);
    expect(await where({ key: 'owner', value: null })).toEqual(['todos/d.md']);
    expect(await where({ key: 'tags', value: 'work' })).toEqual(['todos/a.md', 'todos/b.md']);
  });

  it('!= means "has the key and no value equals"', async () => {
    expect(await where({ key: 'tags', operator: '!=', value: 'money' })).toEqual(['todos/b.md', 'todos/c.md']);
    expect(await where({ key: 'status', operator: '!=', value: 'in_progress' })).toEqual(['todos/c.md', 'todos/d.md']);
  });

  it('LIKE and IN (a list, or a comma-separated string)', async () => {
    expect(await where({ key: 'status', operator: 'LIKE', value: 'in%' })).toEqual([
      'reading/e.md',
      'todos/a.md',
      'todos/b.md',
    ]);
    expect(await where({ key: 'status', operator: 'IN', value: ['completed', 'on_hold'] })).toEqual([
      'todos/c.md',
      'todos/d.md',
    ]);
    expect(await where({ key: 'priority', operator: 'IN', value: '2, 9' })).toEqual(['todos/b.md', 'todos/c.md']);
  });

  it('several predicates all hold; a type narrows further', async () => {
    expect(await where({ key: 'status', value: 'in_progress' }, { key: 'priority', operator: '>=', value: 3 })).toEqual(
      ['todos/a.md', 'todos/b.md'],
    );
    expect(await find({ type: 'reading', metadata: [{ key: 'status', value: 'in_progress' }] })).toEqual([
      'reading/e.md',
    ]);
  });

  it('a predicate on a key nobody has matches nothing (not an error)', async () => {
    expect(await where({ key: 'nonexistent', value: 'x' })).toEqual([]);
  });
});

describe('time windows and content', () => {
  it('created and updated windows: after inclusive, before exclusive', async () => {
    expect(await find({ created: { after: '2024-03-01T00:00:00.000Z' } })).toEqual([
      'reading/e.md',
      'todos/c.md',
      'todos/d.md',
    ]);
    expect(await find({ updated: { before: '2024-05-02T00:00:00.000Z' } })).toEqual(['todos/a.md']);
    expect(await find({ created: { after: '2024-02-01', before: '2024-04-01' } })).toEqual([
      'todos/b.md',
      'todos/c.md',
    ]);
  });

  it('contentContains finds the words in order, the last as a prefix, in the content only', async () => {
    expect(await find({ contentContains: 'review' })).toEqual([
      'reading/e.md',
      'todos/a.md',
      'todos/b.md',
      'todos/d.md',
    ]);
    expect(await find({ contentContains: 'review the' })).toEqual(['todos/a.md', 'todos/b.md']);
    expect(await find({ contentContains: 'book' })).toEqual(['reading/e.md']);
    expect(await find({ contentContains: 'alr' })).toEqual(['todos/d.md']);
    expect(await find({ contentContains: '!!!' })).toEqual([]);
  });
});

describe('sorting', () => {
  const sorted = async (query: Partial<SearchQuery>) => ids(await v.search.search({ text: '', limit: 50, ...query }));

  it('defaults to most recently updated', async () => {
    expect(await sorted({ type: 'todos' })).toEqual(['todos/d.md', 'todos/c.md', 'todos/b.md', 'todos/a.md']);
  });

  it('sorts by metadata numbers as numbers (number-like text too), notes without the key last', async () => {
    expect(await sorted({ sort: [{ field: 'metadata.priority', order: 'desc' }] })).toEqual([
      'todos/a.md',
      'todos/b.md',
      'todos/d.md',
      'todos/c.md',
      'reading/e.md',
    ]);
    expect(await sorted({ sort: [{ field: 'metadata.priority', order: 'asc' }] })).toEqual([
      'todos/c.md',
      'todos/d.md',
      'todos/b.md',
      'todos/a.md',
      'reading/e.md',
    ]);
  });

  it('sorts by several fields', async () => {
    expect(await sorted({ sort: [{ field: 'metadata.status' }, { field: 'created', order: 'desc' }] })).toEqual([
      'todos/c.md',
      'reading/e.md',
      'todos/b.md',
      'todos/a.md',
      'todos/d.md',
    ]);
    expect(await sorted({ type: 'todos', sort: [{ field: 'title', order: 'desc' }] })).toEqual([
      'todos/d.md',
      'todos/c.md',
      'todos/b.md',
      'todos/a.md',
    ]);
  });
});

describe('paging and ordering across the query paths', () => {
  const status = [{ key: 'status', operator: 'IN' as const, value: ['in_progress', 'completed'] }];

  it('counts every metadata match, also on a page past the end', async () => {
    const first = await v.search.search({ text: '', metadata: status, limit: 2 });
    expect(first.total).toBe(4);
    expect(first.hits).toHaveLength(2);
    const past = await v.search.search({ text: '', metadata: status, limit: 2, offset: 10 });
    expect(past).toMatchObject({ hits: [], total: 4 });
  });

  it('words sorted by a field other than score, and content_contains in recency order', async () => {
    const byTitle = await v.search.search({ text: 'review', sort: [{ field: 'title', order: 'desc' }], limit: 10 });
    // "reviewed" is another word: d matches content_contains (a prefix) but not the word "review".
    expect(ids(byTitle)).toEqual(['reading/e.md', 'todos/b.md', 'todos/a.md']);
    expect(byTitle.hits[0]?.snippet).toContain('<mark>review</mark>');
    const recent = await v.search.search({ text: '', contentContains: 'review', limit: 10 });
    expect(ids(recent)).toEqual(['reading/e.md', 'todos/d.md', 'todos/b.md', 'todos/a.md']);
  });
});

describe('bad input names the member', () => {
  it.each<[Partial<SearchQuery>, string]>([
    [{ sort: [{ field: 'priority' as 'title' }] }, 'sort.0.field'],
    [{ sort: [{ field: 'metadata.nobody_has_this' }] }, 'sort.0.field'],
    [{ sort: [{ field: 'title', order: 'up' as 'asc' }] }, 'sort.0.order'],
    [{ metadata: [{ key: 'status', operator: '~=' as '=', value: 'x' }] }, 'metadata.0.operator'],
    [
      {
        metadata: [
          { key: 'a', value: 1 },
          { key: '', value: 1 },
        ],
      },
      'metadata.1.key',
    ],
    [{ metadata: [{ key: 'a', operator: '>', value: null }] }, 'metadata.0.value'],
    [{ metadata: [{ key: 'a', operator: '=', value: ['x'] }] }, 'metadata.0.value'],
    [{ metadata: [{ key: 'a', operator: 'IN', value: [] }] }, 'metadata.0.value'],
    [{ created: { after: 'last tuesday' } }, 'created.after'],
    [{ limit: -1 }, 'limit'],
  ])('%j → %s', async (query, field) => {
    await expect(v.search.search({ text: '', limit: 10, ...query })).rejects.toMatchObject({
      code: 'validation_failed',
      details: { field },
    });
  });
});
