import { z } from 'zod';
import type { VaultFiles } from '../../../kernel/backend.js';
import { ConflictError, ContentHashMismatchError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool.js';
import { nameString, vaultIdField } from '../../../toolkit/tool-fields.js';
import { formatDescription } from '../description.js';
import type { NoteTypes } from '../service.js';
import { assertTypeName } from '../../../toolkit/type-name.js';
import { fieldList, instructionLines, metadataSchemaInput, schemaLinesFrom } from './schema-input.js';
import { bool, str, warningsOutput } from '../../../toolkit/tool-output.js';

/** Used when the caller gives none: generic, so an agent still gets guidance for the new type. */
export const DEFAULT_INSTRUCTIONS = [
  'Ask clarifying questions to understand the context and purpose of the note',
  'Suggest relevant tags and links to related notes',
  'Keep the content organised with clear headings',
];
export const DEFAULT_SCHEMA_LINES = ['tags: Relevant tags for categorization (optional, array)'];

export function createNoteTypeTool(types: NoteTypes, files: VaultFiles) {
  return defineTool({
    name: 'create_note_type',
    description:
      'Create a note type: a folder whose _description.md holds its purpose, agent instructions and metadata schema.',
    input: z.object({
      type_name: nameString().min(1).describe('Also its folder name: letters, digits, _ and -'),
      description: z.string().trim().min(1).describe('What its notes are for'),
      agent_instructions: z.array(z.string()).optional().describe('How an agent should handle its notes, one per item'),
      metadata_schema: metadataSchemaInput.optional(),
      vault_id: vaultIdField,
    }),
    output: z.object({ success: bool, message: str, type_name: str, path: str, content_hash: str, ...warningsOutput }),
    annotations: {
      title: 'Create note type',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    async handler(args, ctx) {
      const name = assertTypeName(args.type_name);
      const clash = (await types.list()).find((t) => t.name.toLowerCase() === name.toLowerCase() && t.hasDescription);
      if (clash)
        throw new ConflictError(`Note type '${clash.name}' already exists; change it with update_note_type.`, {
          type_name: name,
          existing: clash.name,
        });
      const schema = args.metadata_schema ? schemaLinesFrom(ctx, fieldList(args.metadata_schema)) : undefined;
      const instructions = instructionLines(args.agent_instructions ?? []);
      const text = formatDescription(
        name,
        args.description,
        instructions.length ? instructions : DEFAULT_INSTRUCTIONS,
        schema?.lines ?? DEFAULT_SCHEMA_LINES,
      );
      await files.mkdir(name);
      let written;
      try {
        // expectedHash '' = "the file must not exist yet": two creators cannot both win.
        written = await files.writeText(types.descriptionPath(name), text, { expectedHash: '' });
      } catch (err) {
        if (err instanceof ContentHashMismatchError)
          throw new ConflictError(`Note type '${name}' already exists; change it with update_note_type.`, {
            type_name: name,
          });
        throw err;
      }
      return {
        success: true,
        message: `Created note type '${name}' successfully`,
        type_name: name,
        path: files.resolve(name),
        content_hash: written.contentHash,
        ...(schema?.warnings.length ? { warnings: schema.warnings } : {}),
      };
    },
  });
}
