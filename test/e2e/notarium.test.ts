/**
 * Issue 13 end to end: the built `notekernel serve --profile notarium` over MCP stdio (the SDK's
 * own client), talking to a fake Simperium on 127.0.0.1, by seed 003's tool names and shapes:
 * create → list (FTS, tag:, dates, paging) → get a line range → save a text_patch → trash →
 * untrash → delete_permanently. Another device's notes, bad input, faults and start-up are in
 * notarium-sync-and-refusals.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeSimperium } from '../support/fake-simperium/index.js';
import type { StdioSession } from '../support/mcp.js';
import { removeDir } from '../support/temp.js';
import { type ListOutput, type NoteData, notariumHelpers, startNotarium } from './notarium/harness.js';

let fake: FakeSimperium;
let cacheDir: string;
let session: StdioSession;
const { call, refused, writes, allIds } = notariumHelpers(() => ({ fake, session }));

beforeAll(async () => {
  ({ fake, cacheDir, session } = await startNotarium());
}, 60_000);

afterAll(async () => {
  await session?.close();
  await fake?.stop();
  if (cacheDir) await removeDir(cacheDir);
});

describe('notarium over MCP stdio against a fake Simperium', () => {
  let id = '';
  let version = 0;

  it("serves the seed's four tools", async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get', 'list', 'manage', 'save']);
    const manage = tools.find((t) => t.name === 'manage')!;
    expect(JSON.stringify(manage.inputSchema)).toContain('delete_permanently');
  });

  it('save creates a note on Simplenote; list finds it by words, by tag: and by date', async () => {
    const created = await call<NoteData>('save', {
      text: 'Kestrel launch plan\nline two\nline three\nline four',
      tags: ['birds', 'work'],
    });
    expect(created).toMatchObject({
      local_version: 1,
      server_version: 1,
      text: 'Kestrel launch plan\nline two\nline three\nline four',
      tags: ['birds', 'work'],
      trash: false,
    });
    id = created.id;
    version = created.local_version;
    expect(fake.bucket().get(id)?.data).toMatchObject({
      content: created.text,
      tags: ['birds', 'work'],
      deleted: false,
    });

    const byWords = await call<ListOutput>('list', { query: 'kestrel plan' });
    expect(byWords.content[0]).toEqual({
      type: 'text',
      uuid: id,
      text: 'Kestrel launch plan',
      local_version: 1,
      tags: ['birds', 'work'],
      modified_at: created.modified_at,
      trash: false,
    });
    expect((await call<ListOutput>('list', { query: 'tag:birds' })).content.map((i) => i.uuid)).toEqual([id]);
    expect((await call<ListOutput>('list', { query: 'launch tag:nope' })).content).toEqual([]);
    const roses = await call<ListOutput>('list', { query: 'roses', limit: 100 });
    expect(roses.content).toHaveLength(15);
    expect(roses.content.every((item) => item.text.startsWith('Garden log'))).toBe(true);

    const january = await call<ListOutput>('list', { query: 'after:2024-01-10 before:2024-01-12', limit: 100 });
    expect(january.content.map((i) => i.uuid)).toEqual(['dev11', 'dev10', 'dev9']); // Jan 10–12, newest first
    const args = await call<ListOutput>('list', {
      date_after: '2024-01-10',
      date_before: '2024-01-11',
      tags: ['daily'],
      sort_by: 'created_at',
      sort_order: 'ASC',
    });
    expect(args.content.map((i) => i.uuid)).toEqual(['dev9']);
    const daily = await call<ListOutput>('list', { tags: ['daily'], sort_order: 'ASC', limit: 100 });
    expect(daily.content.map((i) => i.uuid)).toEqual([
      'dev0',
      'dev3',
      'dev6',
      'dev9',
      'dev12',
      'dev15',
      'dev18',
      'dev21',
      'dev24',
      'dev27',
    ]);
  });

  it('pages: next_page until the last page, every note once', async () => {
    const first = await call<ListOutput>('list', { limit: 7 });
    expect(first.content).toHaveLength(7);
    expect(first.next_page).toBe(2);
    expect(first.content[0]!.uuid).toBe(id); // most recently modified first
    const pages: string[] = [];
    for (let page: number | undefined = 1; page !== undefined; ) {
      const out: ListOutput = await call<ListOutput>('list', { limit: 7, page });
      pages.push(...out.content.map((i) => i.uuid));
      page = out.next_page;
    }
    expect(pages).toHaveLength(31);
    expect(new Set(pages).size).toBe(31);
    expect((await call<ListOutput>('list', { limit: 7, page: 5 })).next_page).toBeUndefined();
  });

  it('get returns a line range with text_is_partial and text_total_lines', async () => {
    const part = await call<NoteData>('get', { id, range_line_start: 2, range_line_count: 2 });
    expect(part).toMatchObject({
      id,
      local_version: 1,
      text: 'line two\nline three',
      text_is_partial: true,
      text_total_lines: 4,
      range_line_start: 2,
      range_line_count: 2,
    });
    const tail = await call<NoteData>('get', { id, range_line_start: 3, range_line_count: 99 });
    expect(tail).toMatchObject({ text: 'line three\nline four', text_is_partial: true, range_line_count: 2 });
    expect(await call<NoteData>('get', { id })).toMatchObject({ text_is_partial: false, text_total_lines: 4 });
    // local_version: the same version answers plainly; an older one is told the note moved on.
    expect((await call<NoteData & { notices?: string[] }>('get', { id, local_version: 1 })).notices).toBeUndefined();
    const moved = await call<NoteData & { notices?: string[] }>('get', { id, local_version: 0 });
    expect(moved.notices).toEqual([
      'local_version 0: the note is at version 1 now (changed since that version was read); this is version 1.',
    ]);
  });

  it("save applies a text_patch in the seed's order against the text of that local_version", async () => {
    const saved = await call<NoteData>('save', {
      id,
      local_version: version,
      text_patch: [
        { operation: 'addition', line_number: 2, value: 'inserted' },
        { operation: 'deletion', line_number: 4 },
        { operation: 'modification', line_number: 2, value: 'LINE TWO' },
      ],
    });
    expect(saved.text).toBe('Kestrel launch plan\ninserted\nLINE TWO\nline three');
    expect(saved.local_version).toBe(2);
    expect(fake.bucket().get(id)).toMatchObject({ version: 2, data: { content: saved.text, tags: ['birds', 'work'] } });
    version = saved.local_version;
  });

  it('a stale local_version is a typed conflict with a hint; nothing is written', async () => {
    const before = writes();
    const stale = await refused('save', { id, local_version: 1, text: 'Kestrel\nclobber' });
    expect(stale).toMatchObject({ error: 'conflict', field: 'local_version', current_local_version: 2 });
    expect(stale.hint).toMatch(/get/);
    // Another device changes the note: our version is stale now too.
    fake
      .bucket()
      .post(id, { content: 'Kestrel launch plan\nedited on the phone', modificationDate: Date.now() / 1000 });
    expect(await refused('manage', { action: 'trash', id, local_version: version })).toMatchObject({
      error: 'conflict',
      field: 'local_version',
      current_local_version: 3,
    });
    expect(writes()).toBe(before);
    version = (await call<NoteData>('get', { id })).local_version;
    expect(version).toBe(3);
  });

  it('trash → untrash → delete_permanently', async () => {
    const trashed = await call<{ id: string; status: string; new_local_version: number }>('manage', {
      action: 'trash',
      id,
      local_version: version,
    });
    expect(trashed).toMatchObject({ id, status: 'trashed', new_local_version: 4, new_server_version: 4 });
    expect(fake.bucket().get(id)?.data.deleted).toBe(true);
    expect(await allIds()).not.toContain(id);
    expect(await allIds({ trash_status: 1 })).toEqual([id]);
    // Seed 003 §9: trash: in the query is a filter, not words (the trash_status argument wins).
    expect(await allIds({ query: 'trash:1' })).toEqual([id]);
    expect(await allIds({ query: 'kestrel trash:yes' })).toEqual([id]);
    expect(await allIds({ query: 'trash:any' })).toContain(id);
    expect(await allIds({ query: 'trash:0' })).not.toContain(id);
    expect(await allIds({ query: 'trash:1', trash_status: 0 })).not.toContain(id);
    expect(await refused('list', { query: 'trash:maybe' })).toMatchObject({
      error: 'validation_failed',
      field: 'query',
    });
    expect(await allIds({ trash_status: 2 })).toContain(id);
    const untrashed = await call<{ status: string; new_local_version: number }>('manage', {
      action: 'untrash',
      id,
      local_version: 4,
    });
    expect(untrashed).toMatchObject({ status: 'untrashed', new_local_version: 5 });
    expect(await allIds()).toContain(id);
    expect(await call('manage', { action: 'delete_permanently', id, local_version: 5 })).toEqual({
      id,
      status: 'deleted',
    });
    expect(fake.bucket().get(id)).toBeUndefined();
    expect(await allIds({ trash_status: 2 })).not.toContain(id);
    expect(await refused('get', { id })).toMatchObject({ error: 'not_found', field: 'id' });
  });
});
