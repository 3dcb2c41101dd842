/**
 * `manage` (seed 003 §10.4): trash, untrash or permanently delete one note at the version the
 * caller read (backend-first); get_stats, reset_cache, and `sync` (one delta sync now, beyond the
 * seed) through the store's `remote-sync` member.
 */
import { requireMember, type NoteStore } from '../../../kernel/backend.js';
import { defineTool } from '../../../kernel/tool.js';
import { noteAtVersion, orVersionConflict } from '../current-note.js';
import { invalid } from '../errors.js';
import { versionOf } from '../note-data.js';
import { ManageInputSchema, type ManageNoteActionOutput, ManageOutputSchema } from '../schemas.js';

export function manageTool(store: NoteStore, backendId: string) {
  const remote = () => requireMember(store.remote, backendId, 'remote-sync', 'tool manage');
  return defineTool({
    name: 'manage',
    description:
      'Note actions (need id and the local_version you read): trash, untrash, delete_permanently (trashes first, then deletes on Simplenote: cannot be undone). Service actions: get_stats (notes, trashed, sync cursor and metrics), sync (pull changes from other devices now; returns what it did), reset_cache (drop the local cache and rebuild it by a full sync).',
    input: ManageInputSchema,
    requires: ['remote-sync'],
    output: ManageOutputSchema,
    annotations: {
      title: 'Manage notes and the sync',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    async handler(args, ctx): Promise<ManageNoteActionOutput | Record<string, unknown>> {
      if (args.action === 'get_stats') return { ...(await remote().stats()) };
      if (args.action === 'sync') return { ...(await remote().syncNow()) };
      if (args.action === 'reset_cache') return { ...(await remote().resetCache()) };
      if (args.id === undefined) throw invalid('id', `action ${args.action} needs the note's id.`);
      if (args.local_version === undefined)
        throw invalid('local_version', `action ${args.action} needs the local_version you read (from get or list).`);
      const { id, local_version: localVersion } = args;
      const current = await noteAtVersion(ctx.notes, id, localVersion);
      if (args.action === 'delete_permanently') {
        await orVersionConflict(id, localVersion, () => ctx.notes.delete(id, current.contentHash));
        return { id, status: 'deleted' };
      }
      const trash = args.action === 'trash';
      const note = await orVersionConflict(
        id,
        localVersion,
        async () => (await ctx.notes.update(id, { metadata: { deleted: trash } }, current.contentHash)).note,
      );
      const version = versionOf(note);
      return { id, status: trash ? 'trashed' : 'untrashed', new_local_version: version, new_server_version: version };
    },
  });
}
