/**
 * Capability `metadata-query` on the postgres store, beyond the contract's cases: each operator,
 * list elements one by one, booleans, instants of any spelling, a value that only looks like a
 * date, time windows, a content phrase, and sorts by a metadata key.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SearchQuery } from '../../../kernel/search-index.js';
import { describePg, dropSchema, freshSchema, type Host, openHost, vaultName } from './helpers.js';

describePg('postgres backend: metadata queries', () => {
  const schema = freshSchema();
  let host: Host;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    host = await openHost(schema, vaultName());
    const notes = {
      a: { status: 'active', priority: 3, done: false, due: '2024-06-01', labels: ['red', 'blue'] },
      b: { status: 'Active archive', priority: 10, done: true, due: '2024-05-31T23:00:00-02:00', labels: ['blue'] },
      c: { status: 'done', priority: '7', due: '2024-02-30', labels: [] },
    };
    for (const [name, metadata] of Object.entries(notes)) {
      const note = await host.store.create({
        title: `Note ${name}`,
        content: `The quick brown fox of ${name}.`,
        metadata,
      });
      ids[note.id] = name;
    }
  });
  afterAll(async () => {
    await host.close();
    await dropSchema(schema);
  });

  const names = async (query: Partial<SearchQuery>) =>
    (await host.search.search({ text: '', limit: 10, ...query })).hits.map((h) => ids[h.id]).sort();

  it('compares by what each note stores', async () => {
    // c's priority is the text "7": compared as text, as a file's quoted value is.
    expect(await names({ metadata: [{ key: 'priority', operator: '>=', value: 5 }] })).toEqual(['b', 'c']);
    expect(await names({ metadata: [{ key: 'priority', operator: '>=', value: 8 }] })).toEqual(['b']);
    expect(await names({ metadata: [{ key: 'priority', operator: '<', value: '5' }] })).toEqual(['a']);
    expect(await names({ metadata: [{ key: 'done', value: true }] })).toEqual(['b']);
    expect(await names({ metadata: [{ key: 'labels', value: 'blue' }] })).toEqual(['a', 'b']);
    expect(await names({ metadata: [{ key: 'labels', operator: '!=', value: 'red' }] })).toEqual(['b', 'c']);
    expect(await names({ metadata: [{ key: 'status', operator: 'LIKE', value: 'active%' }] })).toEqual(['a', 'b']);
    expect(await names({ metadata: [{ key: 'status', operator: 'IN', value: 'done, active' }] })).toEqual(['a', 'c']);
    expect(await names({ metadata: [{ key: 'nothing', operator: '!=', value: 'x' }] })).toEqual([]);
  });

  it('reads dates as instants, whatever their spelling, and passes over one that is no date', async () => {
    // b's due is 2024-06-01T01:00Z: on or after a's midnight.
    expect(await names({ metadata: [{ key: 'due', operator: '>=', value: '2024-06-01' }] })).toEqual(['a', 'b']);
    expect(await names({ metadata: [{ key: 'due', operator: '<', value: '2024-06-01T00:30:00Z' }] })).toEqual(['a']);
    const sorted = await host.search.search({ text: '', limit: 10, sort: [{ field: 'metadata.due', order: 'desc' }] });
    expect(sorted.hits.map((h) => ids[h.id])).toEqual(['b', 'a', 'c']);
  });

  it('filters by time window and content phrase, with a text query too', async () => {
    expect(await names({ created: { after: '2000-01-01' }, updated: { before: '2999-01-01' } })).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(await names({ created: { before: '2000-01-01' } })).toEqual([]);
    expect(await names({ contentContains: 'quick bro' })).toEqual(['a', 'b', 'c']);
    expect(await names({ contentContains: 'brown quick' })).toEqual([]);
    expect(await names({ text: 'fox', metadata: [{ key: 'priority', operator: '<', value: 5 }] })).toEqual(['a']);
    await expect(host.search.search({ text: '', limit: 5, created: { after: 'yesterday-ish' } })).rejects.toMatchObject(
      {
        code: 'validation_failed',
        details: { field: 'created.after' },
      },
    );
  });
});
