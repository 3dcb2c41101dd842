/** The flint-note:// resources end to end: listed, and read as JSON over a real MCP client. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFlint, type FlintSession } from '../support/flint-session.js';

let v: FlintSession;
beforeAll(async () => {
  v = await startFlint('nk-e2e-resources-');
  // Two calls, a clock tick apart: a batch's items run concurrently and may share one millisecond.
  await v.ok('create_note', { title: 'Older', content: 'a' });
  await new Promise((resolve) => setTimeout(resolve, 5));
  await v.ok('create_note', { type: 'projects', title: 'Newest', content: 'b', metadata: { status: 'active' } });
});
afterAll(async () => {
  await v?.close();
});

async function read<T>(uri: string): Promise<T> {
  const { contents } = await v.session.client.readResource({ uri });
  expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
  return JSON.parse(String((contents[0] as { text: string }).text)) as T;
}

it('lists the five seed resources', async () => {
  const { resources } = await v.session.client.listResources();
  expect(resources.map((r) => r.uri)).toEqual(
    expect.arrayContaining([
      'flint-note://vaults',
      'flint-note://current-vault',
      'flint-note://types',
      'flint-note://recent',
      'flint-note://stats',
    ]),
  );
});

it('flint-note://types lists every type with purpose, instructions and counts', async () => {
  const types =
    await read<Array<{ name: string; purpose: string; agentInstructions: string[]; noteCount: number }>>(
      'flint-note://types',
    );
  expect(types.map((t) => t.name)).toEqual(['daily', 'general', 'goals', 'projects', 'reading', 'todos']);
  expect(types.find((t) => t.name === 'general')).toMatchObject({
    noteCount: 2,
    purpose: expect.stringMatching(/General-purpose/),
  });
  expect(types.find((t) => t.name === 'projects')?.agentInstructions.length).toBeGreaterThan(0);
});

it('flint-note://recent lists the newest notes first', async () => {
  const recent = await read<Array<{ id: string; title: string; modified: string }>>('flint-note://recent');
  expect(recent.map((n) => n.id)).toEqual([
    'projects/newest.md',
    'general/older.md',
    'general/welcome-to-your-vault.md',
  ]);
  expect(recent[0]).toMatchObject({ title: 'Newest', type: 'projects' });
});

it('flint-note://stats counts notes in total and per type', async () => {
  const stats = await read<Record<string, unknown>>('flint-note://stats');
  expect(stats).toMatchObject({
    total_notes: 3,
    note_types: 6,
    notes_by_type: { general: 2, projects: 1, daily: 0 },
    last_updated_note: 'projects/newest.md',
  });
});

it('flint-note://vaults and flint-note://current-vault answer JSON about the served vault', async () => {
  expect(await read<Record<string, unknown>>('flint-note://current-vault')).toMatchObject({
    path: v.root,
    note_count: 3,
  });
  expect(Array.isArray(await read<unknown>('flint-note://vaults'))).toBe(true); // seed 000: "JSON list of vault configurations"
});
