/**
 * The search plugin's three tools through the kernel (createTestKernel: the flint profile, real
 * files, real index): seed 000's argument names and response shape, field filtering, and bad
 * input that names the argument.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestKernel, type TestKernel } from '../../support/temp.js';

let t: TestKernel;
type Response = { results: Array<Record<string, unknown>>; total: number; has_more: boolean };
const call = async (tool: string, args: Record<string, unknown>) => (await t.vault.call(tool, args)) as Response;

beforeAll(async () => {
  t = await createTestKernel({ config: { plugins: { search: { sqlMaxRows: 50, sqlTimeoutMs: 400 } } } });
  await t.vault.call('create_note', {
    notes: [
      {
        type: 'birds',
        title: 'Kestrel launch plan',
        content: 'The kestrel launch needs a budget review.',
        metadata: { status: 'in_progress', priority: 4, tags: ['launch'] },
      },
      {
        type: 'birds',
        title: 'Heron archive',
        content: 'Old heron notes, mentions kestrel once.',
        metadata: { status: 'completed', priority: 1 },
      },
      {
        type: 'birds',
        title: 'Osprey draft',
        content: 'Draft of the osprey proposal.',
        metadata: { status: 'in_progress', priority: 2 },
      },
    ],
  });
});

afterAll(() => t.close());

describe('search_notes', () => {
  it("answers seed 000's shape, in its key order", async () => {
    const body = await call('search_notes', { query: 'kestrel' });
    expect(body.total).toBe(2);
    expect(body.has_more).toBe(false);
    expect(Object.keys(body.results[0] ?? {})).toEqual([
      'id',
      'title',
      'type',
      'tags',
      'score',
      'snippet',
      'lastUpdated',
      'filename',
      'path',
      'created',
      'modified',
      'size',
      'metadata',
    ]);
    expect(body.results[0]).toMatchObject({
      id: 'birds/kestrel-launch-plan.md',
      title: 'Kestrel launch plan',
      type: 'birds',
      tags: ['launch'],
    });
    expect(body.results[0]?.snippet).toContain('<mark>kestrel</mark>');
    expect(body.results[0]?.metadata).toMatchObject({ status: 'in_progress', priority: 4 });
  });

  it('field filtering keeps score, snippet, filename and path', async () => {
    const body = await call('search_notes', { query: 'osprey', fields: ['id', 'title', 'metadata.status'] });
    expect(Object.keys(body.results[0] ?? {}).sort()).toEqual([
      'filename',
      'id',
      'metadata',
      'path',
      'score',
      'snippet',
      'title',
    ]);
    expect(body.results[0]?.metadata).toEqual({ status: 'in_progress' });
  });

  it('type_filter, limit and has_more; an omitted query lists the most recent', async () => {
    const body = await call('search_notes', { type_filter: 'birds', limit: 2 });
    expect(body.results.every((r) => r.type === 'birds')).toBe(true);
    const times = body.results.map((r) => String(r.lastUpdated));
    expect(times).toEqual([...times].sort().reverse());
    expect(body).toMatchObject({ total: 3, has_more: true });
  });

  it('use_regex matches a JavaScript regex', async () => {
    const body = await call('search_notes', { query: 'kestrel (launch|once)', use_regex: true });
    expect(body.results.map((r) => r.id).sort()).toEqual(['birds/heron-archive.md', 'birds/kestrel-launch-plan.md']);
  });

  it('nothing matching is an empty answer, not an error', async () => {
    expect(await call('search_notes', { query: 'albatross' })).toEqual({ results: [], total: 0, has_more: false });
  });

  it('follows writes made through the tools', async () => {
    const note = (await t.vault.call('get_note', { identifier: 'birds/osprey-draft.md' })) as { content_hash: string };
    await t.vault.call('update_note', {
      identifier: 'birds/osprey-draft.md',
      content: 'Now about pelicans.',
      content_hash: note.content_hash,
    });
    expect((await call('search_notes', { query: 'pelicans' })).results.map((r) => r.id)).toEqual([
      'birds/osprey-draft.md',
    ]);
    expect((await call('search_notes', { query: 'proposal' })).total).toBe(0);
  });
});

describe('search_notes_advanced', () => {
  it("runs seed 000's example shape: typed filters, a window, content, sort, fields", async () => {
    const body = await call('search_notes_advanced', {
      type: 'birds',
      metadata_filters: [
        { key: 'status', value: 'in_progress' },
        { key: 'priority', operator: '>=', value: '3' },
      ],
      updated_within: '7d',
      content_contains: 'budget',
      sort: [{ field: 'updated', order: 'desc' }],
      limit: 50,
      fields: ['id', 'title', 'type', 'updated', 'metadata.status', 'metadata.priority'],
    });
    expect(body.total).toBe(1);
    expect(body.results[0]).toMatchObject({
      id: 'birds/kestrel-launch-plan.md',
      metadata: { status: 'in_progress', priority: 4 },
    });
  });

  it('sorts by a metadata field and pages with offset', async () => {
    const first = await call('search_notes_advanced', {
      type: 'birds',
      sort: [{ field: 'metadata.priority', order: 'desc' }],
      limit: 2,
    });
    expect(first.results.map((r) => r.id)).toEqual(['birds/kestrel-launch-plan.md', 'birds/osprey-draft.md']);
    expect(first.has_more).toBe(true);
    const second = await call('search_notes_advanced', {
      type: 'birds',
      sort: [{ field: 'metadata.priority', order: 'desc' }],
      limit: 2,
      offset: 2,
    });
    expect(second.results.map((r) => r.id)).toEqual(['birds/heron-archive.md']);
    expect(second.has_more).toBe(false);
  });
});

describe('search_notes_sql', () => {
  it('rows naming a note become results (extra columns kept); aggregates stay rows', async () => {
    const notes = await call('search_notes_sql', {
      query: "SELECT n.*, 7 AS lucky FROM notes n WHERE n.type = 'birds' ORDER BY n.title",
      fields: ['id', 'lucky'],
    });
    expect(notes.results[0]).toEqual(expect.objectContaining({ id: 'birds/heron-archive.md', lucky: 7, score: 1 }));
    expect(Object.keys(notes.results[0] ?? {}).sort()).toEqual(['filename', 'id', 'lucky', 'path', 'score', 'snippet']);
    const grouped = await call('search_notes_sql', {
      query:
        "SELECT value AS status, count(*) AS n FROM note_metadata WHERE key = 'status' GROUP BY value ORDER BY value",
    });
    expect(grouped.results).toEqual([
      { status: 'completed', n: 1 },
      { status: 'in_progress', n: 2 },
    ]);
  });

  it('binds params, pages with limit and has_more', async () => {
    const body = await call('search_notes_sql', {
      query: 'SELECT id FROM notes WHERE type = ? ORDER BY id',
      params: ['birds'],
      limit: 2,
    });
    expect(body.results.map((r) => r.id)).toEqual(['birds/heron-archive.md', 'birds/kestrel-launch-plan.md']);
    expect(body).toMatchObject({ total: 2, has_more: true });
  });

  it('stops a query at the configured time limit', async () => {
    await expect(
      t.vault.call('search_notes_sql', {
        query: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c',
      }),
    ).rejects.toMatchObject({ code: 'timeout', details: { timeout_ms: 400 } });
  });
});

describe('bad input names the argument', () => {
  it.each<[string, Record<string, unknown>, string]>([
    [
      'search_notes_advanced',
      { metadata_filters: [{ key: 'status', operator: '===', value: 'x' }] },
      'metadata_filters.0.operator',
    ],
    ['search_notes_advanced', { updated_within: '7 days' }, 'updated_within'],
    ['search_notes_advanced', { created_before: 'someday' }, 'created_before'],
    ['search_notes_advanced', { sort: [{ field: 'priority', order: 'desc' }] }, 'sort.0.field'],
    ['search_notes_advanced', { sort: [{ field: 'metadata.nobody', order: 'desc' }] }, 'sort.0.field'],
    ['search_notes', { limit: 0 }, 'limit'],
    ['search_notes', { query: 'broken(', use_regex: true }, 'query'],
    ['search_notes_sql', { query: 'DROP TABLE notes' }, 'query'],
    ['search_notes_sql', { query: 'SELECT ?', params: [{ a: 1 }] }, 'params'],
  ])('%s %j → %s', async (tool, args, field) => {
    const err = await t.vault.call(tool, args).then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string; details: { fields: string[] } },
    );
    expect(err?.code).toBe('validation_failed');
    expect(err?.details.fields).toContain(field);
    expect(err?.message).toContain(field);
  });
});

describe('a limit above the maximum', () => {
  it.each<[string, Record<string, unknown>, number]>([
    ['search_notes_advanced', { limit: 501 }, 500],
    ['search_notes', { limit: 101 }, 100],
    ['search_notes_sql', { query: 'SELECT 1', limit: 51 }, 50],
  ])('%s %j is clamped to %d, with a notice', async (tool, args, max) => {
    const answer = (await t.vault.call(tool, args)) as { notices?: string[] };
    expect(answer.notices).toEqual([expect.stringContaining(`above the maximum ${max}: ${max} used`)]);
  });
});

describe('tool declarations', () => {
  // vault_id, limit and offset say all by name, bounds and default (decision 017: described once, not on every tool).
  const selfExplained = new Set(['vault_id', 'limit', 'offset']);
  it('describe every other argument and carry read-only annotations', () => {
    for (const name of ['search_notes', 'search_notes_advanced', 'search_notes_sql']) {
      const tool = t.vault.tools().find((x) => x.name === name);
      expect(tool?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
      const props = (tool?.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [arg, schema] of Object.entries(props))
        if (!selfExplained.has(arg)) expect(schema.description, `${name}.${arg}`).toBeTruthy();
      expect(Object.keys(props)).toEqual(expect.arrayContaining(['limit', 'vault_id']));
    }
  });
});
