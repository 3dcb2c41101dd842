/**
 * note-types: folders as note types, each described by its `_description.md` (purpose, agent
 * instructions, metadata schema), with the tools that create, read, update and delete them.
 * Seeds the default types when a vault is initialised.
 */
import { requireMember } from '../../kernel/backend.js';
import { ConflictError } from '../../kernel/errors.js';
import { definePlugin, provide } from '../../kernel/plugin.js';
import { DEFAULT_TYPES, WELCOME_NOTE } from './defaults.js';
import { formatDescription } from './description.js';
import { migrateReadingType } from './migrate-reading.js';
import { typePolicyHooks } from './type-policy.js';
import { VAULT_CONFIG } from '../vault-config/service.js';
import { NOTE_TYPES } from './service.js';
import { createNoteTypes } from './type-folders.js';
import { createNoteTypeTool } from './tools/create-note-type.js';
import { deleteNoteTypeTool } from './tools/delete-note-type.js';
import { getNoteTypeInfoTool } from './tools/get-note-type-info.js';
import { listNoteTypesTool, noteTypeRows } from './tools/list-note-types.js';
import { updateNoteTypeTool } from './tools/update-note-type.js';

export {
  NOTE_TYPES,
  SCHEMA_CODEC,
  type NoteTypes,
  type NoteTypeInfo,
  type SchemaCodec,
  type TypeDescription,
} from './service.js';

export const noteTypesPlugin = definePlugin<Record<string, never>>({
  id: 'note-types',
  description: 'Note types as folders with _description.md: purpose, agent instructions, metadata schema.',
  requires: ['typed-notes', 'files'],
  async register(ctx) {
    const files = requireMember(ctx.store.files, ctx.vault.storageBackend, 'files', 'note-types');
    await migrateReadingType(files, ctx.logger, ctx.vault.readOnly);
    const listTypes = requireMember(
      ctx.store.listTypes?.bind(ctx.store),
      ctx.vault.storageBackend,
      'typed-notes',
      'note-types',
    );
    const types = createNoteTypes(listTypes, files);
    return {
      services: [provide(NOTE_TYPES, types)],
      tools: [
        listNoteTypesTool(types, ctx.store),
        createNoteTypeTool(types, files),
        getNoteTypeInfoTool(types),
        updateNoteTypeTool(types, files),
        deleteNoteTypeTool(types, files),
      ],
      resources: [
        {
          uri: 'flint-note://types',
          name: 'Note types',
          description: 'Every note type with its purpose, agent instructions and note count (JSON list).',
          mimeType: 'application/json',
          read: () => noteTypeRows(types, ctx.store),
        },
      ],
      hooks: {
        // Per write, not at registration: the vault-config plugin is optional and may load later.
        ...typePolicyHooks(types, files, async () => ctx.tryResolve(VAULT_CONFIG)?.get(), ctx.logger),
        async 'vault.init'(payload) {
          for (const type of DEFAULT_TYPES) {
            const rel = types.descriptionPath(type.name);
            if (await files.exists(rel)) continue;
            await files.mkdir(type.name);
            await files.writeText(rel, formatDescription(type.name, type.purpose, type.instructions, type.schema));
          }
          if (payload.sampleNotes === false) return;
          try {
            await ctx.notes.create(WELCOME_NOTE);
          } catch (err) {
            if (!(err instanceof ConflictError)) throw err; // already welcomed: init is idempotent
          }
        },
      },
    };
  },
});
