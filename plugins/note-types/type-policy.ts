/**
 * Seed 000's `note_types` settings of `.flint-note/config.yml`, honoured on every write:
 * - `auto_create_directories` (default true): a note whose type has no folder yet creates it;
 *   false refuses the note before anything is written, naming the types that exist.
 * - `require_descriptions` (default true): a type a note is created in gets a default
 *   `_description.md` when it has none, as flint-note writes one; false leaves the folder
 *   without one. (move_note only moves to types that exist.)
 */
import type { VaultFiles } from '../../kernel/backend.js';
import { ContentHashMismatchError, NotFoundError } from '../../kernel/errors.js';
import type { NoteDraft, WriteSource } from '../../kernel/hooks.js';
import type { Logger } from '../../kernel/logger.js';
import type { Note } from '../../kernel/note.js';
import { DEFAULT_VAULT_CONFIG, type VaultConfig } from '../../toolkit/vault-config.js';
import { formatDescription } from './description.js';
import type { NoteTypes } from './service.js';
import { DEFAULT_INSTRUCTIONS, DEFAULT_SCHEMA_LINES } from './tools/create-note-type.js';

type Config = () => Promise<Pick<VaultConfig, 'default_note_type' | 'note_types'> | undefined>;

export function typePolicyHooks(types: NoteTypes, files: VaultFiles, config: Config, logger: Logger) {
  const settings = async () => (await config()) ?? DEFAULT_VAULT_CONFIG;
  const describe = async (type: string | undefined) => {
    if (!type || !(await settings()).note_types.require_descriptions) return;
    const info = await types.get(type);
    if (!info || info.hasDescription) return;
    const purpose = `Notes of type '${type}'. Describe what they are for with update_note_type.`;
    try {
      await files.writeText(
        types.descriptionPath(type),
        formatDescription(type, purpose, DEFAULT_INSTRUCTIONS, DEFAULT_SCHEMA_LINES),
        { expectedHash: '' },
      );
      logger.info(
        { type },
        `note type '${type}' had no _description.md: a default one was written (note_types.require_descriptions)`,
      );
    } catch (err) {
      if (!(err instanceof ContentHashMismatchError)) throw err; // written meanwhile by someone else
    }
  };
  return {
    async 'note.beforeWrite'(draft: NoteDraft): Promise<void> {
      if (draft.op !== 'create') return;
      const current = await settings();
      if (current.note_types.auto_create_directories) return;
      const type = draft.type ?? current.default_note_type;
      if (await types.get(type)) return;
      const available = (await types.list()).map((t) => t.name);
      throw new NotFoundError(
        `Note type '${type}' does not exist, and this vault does not create types from notes (note_types.auto_create_directories: false in .flint-note/config.yml): create it with create_note_type, or use one of: ${available.join(', ') || '(none)'}. Nothing was written.`,
        { type, available },
      );
    },
    // Only notes written through the tools: a file another program drops in a folder is left as it is.
    async 'note.afterWrite'(event: { note: Note; op: 'create' | 'update'; source: WriteSource }): Promise<void> {
      if (event.op === 'create' && event.source === 'tool') await describe(event.note.type);
    },
  };
}
