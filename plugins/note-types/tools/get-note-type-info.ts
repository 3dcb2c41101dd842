import fs from 'node:fs/promises';
import { z } from 'zod';
import { NotFoundError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool.js';
import { nameString, vaultIdField } from '../../../toolkit/tool-fields.js';
import { SCHEMA_CODEC, type NoteTypeInfo, type NoteTypes } from '../service.js';
import { assertTypeName } from '../../../toolkit/type-name.js';
import { record, str, strs } from '../../../toolkit/tool-output.js';

/** The type, or `not_found` listing the types that do exist. */
export async function requireType(types: NoteTypes, name: string, field = 'type_name'): Promise<NoteTypeInfo> {
  assertTypeName(name, field);
  const info = await types.get(name);
  if (info) return info;
  const available = (await types.list()).map((t) => t.name);
  throw new NotFoundError(`Note type '${name}' does not exist. Available types: ${available.join(', ') || '(none)'}`, {
    type_name: name,
    available,
  });
}

export function getNoteTypeInfoTool(types: NoteTypes) {
  return defineTool({
    name: 'get_note_type_info',
    description:
      "A note type's purpose, agent instructions, metadata schema (with its errors) and the content_hash update_note_type needs.",
    input: z.object({
      type_name: nameString().min(1),
      vault_id: vaultIdField,
    }),
    output: z.object({
      type_name: str,
      description: str,
      agent_instructions: strs,
      metadata_schema: z.object({ fields: z.array(record) }),
      schema_errors: strs.optional(),
      schema_warnings: strs.optional(),
      schema_lines: strs.optional(),
      content_hash: str,
      path: str,
      created: str,
      updated: str,
    }),
    annotations: { title: 'Get note type info', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      const info = await requireType(types, args.type_name);
      const schemaService = ctx.tryResolve(SCHEMA_CODEC);
      const schema = schemaService?.parseLines(info.description.schemaLines);
      const stats = await fs.stat(info.hasDescription ? `${info.path}/_description.md` : info.path);
      return {
        type_name: info.name,
        description: info.description.purpose,
        agent_instructions: info.description.agentInstructions,
        metadata_schema: { fields: schema ? schema.fields.map((f) => schemaService?.toJson(f)) : [] },
        ...(schema?.errors.length ? { schema_errors: schema.errors } : {}),
        ...(schema?.warnings.length ? { schema_warnings: schema.warnings } : {}),
        ...(schema ? {} : { schema_lines: info.description.schemaLines }),
        // '' when the folder has no _description.md yet: update_note_type with '' writes one.
        content_hash: info.contentHash,
        path: info.path,
        created: stats.birthtime.toISOString(),
        updated: stats.mtime.toISOString(),
      };
    },
  });
}
