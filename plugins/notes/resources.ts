/** `flint-note://recent` and `flint-note://stats`, answered from the index (no file reads). */
import type { NoteStore } from '../../kernel/backend.js';
import type { ResourceDefinition } from '../../kernel/plugin.js';

const RECENT = 20;

export function noteResources(store: NoteStore): ResourceDefinition[] {
  return [
    {
      uri: 'flint-note://recent',
      name: 'Recently modified notes',
      description: `The ${RECENT} most recently updated notes (JSON list).`,
      mimeType: 'application/json',
      async read() {
        const notes = await store.list({ orderBy: 'updated', direction: 'desc', limit: RECENT });
        return notes.map((n) => ({
          id: n.id,
          title: n.title,
          type: n.type,
          filename: n.filename,
          path: n.path,
          created: n.created,
          modified: n.updated,
          size: n.size,
          tags: n.tags,
        }));
      },
    },
    {
      uri: 'flint-note://stats',
      name: 'Workspace statistics',
      description: 'Note counts in total and per type, and the newest activity (JSON).',
      mimeType: 'application/json',
      async read() {
        const types = (await store.listTypes?.()) ?? [];
        const counts = await Promise.all(types.map(async (t) => [t, await store.count({ type: t })] as const));
        const [latest] = await store.list({ orderBy: 'updated', direction: 'desc', limit: 1 });
        return {
          total_notes: await store.count(),
          note_types: types.length,
          notes_by_type: Object.fromEntries(counts),
          last_updated: latest?.updated ?? null,
          last_updated_note: latest?.id ?? null,
        };
      },
    },
  ];
}
