import { z } from 'zod';
import { NotFoundError } from '../../../kernel/errors.js';
import type { Note } from '../../../kernel/note.js';
import { defineTool, type ToolContext } from '../../../kernel/tool.js';
import { assertTypeName } from '../../../toolkit/type-name.js';
import { NOTE_TYPES } from '../../note-types/service.js';
import { isSystemKey } from '../../../toolkit/metadata-fields.js';
import { SCHEMA } from '../../schema/service.js';
import { withWarnings } from '../schema-warnings.js';
import { bool, str, warningsOutput } from '../../../toolkit/tool-output.js';
import { CONTENT_HASH, nameString, noteIdField, vaultIdField } from '../../../toolkit/tool-fields.js';

export const moveNoteTool = defineTool({
  name: 'move_note',
  description: 'Move a note to another type, keeping its filename, title, content and metadata.',
  input: z.object({
    identifier: noteIdField,
    new_type: nameString().min(1).describe('An existing note type'),
    content_hash: z
      .string({ error: 'content_hash is required: read the note (get_note) and pass its content_hash' })
      .min(1)
      .describe(CONTENT_HASH),
    vault_id: vaultIdField,
  }),
  output: z.object({
    success: bool,
    message: str,
    old_identifier: str,
    new_identifier: str,
    old_type: str,
    new_type: str,
    filename: str,
    title: str,
    timestamp: str,
    content_hash: str,
    filename_unchanged: bool,
    links_preserved: bool,
    ...warningsOutput,
  }),
  annotations: {
    title: 'Move note',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  requires: ['typed-notes'],
  async handler(args, ctx) {
    const newType = assertTypeName(args.new_type, 'new_type');
    const types = ctx.tryResolve(NOTE_TYPES);
    if (types && !(await types.get(newType))) {
      const available = (await types.list()).map((t) => t.name);
      throw new NotFoundError(
        `Note type '${newType}' does not exist; create it with create_note_type. Available types: ${available.join(', ')}`,
        {
          type_name: newType,
          available,
        },
      );
    }
    const before = await ctx.notes.require(args.identifier);
    const note = await ctx.notes.move(before.id, newType, args.content_hash);
    return {
      success: true,
      message: `Note moved successfully from '${before.type}' to '${newType}' note type`,
      old_identifier: before.id,
      new_identifier: note.id,
      old_type: before.type,
      new_type: newType,
      filename: note.filename,
      title: note.title,
      timestamp: note.updated,
      content_hash: note.contentHash,
      // The filename stays and links reach the note by title or filename, so none break.
      filename_unchanged: note.filename === before.filename,
      links_preserved: true,
      ...withWarnings(await targetSchemaGaps(ctx, note, newType)),
    };
  },
});

/** The move is never refused for metadata, but the agent hears what the new type expects. */
async function targetSchemaGaps(ctx: ToolContext, note: Note, type: string): Promise<string[]> {
  const schema = ctx.tryResolve(SCHEMA);
  if (!schema) return [];
  const custom = Object.fromEntries(Object.entries(note.metadata).filter(([k]) => !isSystemKey(k)));
  const result = await schema.check({
    type,
    metadata: custom,
    op: 'update',
    changedKeys: Object.keys(custom),
    strict: false,
  });
  return [...result.errors, ...result.warnings].map((i) => `In note type '${type}': ${i.message}`);
}
