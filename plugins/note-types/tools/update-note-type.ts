import { z } from 'zod';
import type { VaultFiles } from '../../../kernel/backend.js';
import { ContentHashMismatchError, NotekernelError, ValidationError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool.js';
import { nameString, vaultIdField } from '../../../toolkit/tool-fields.js';
import { formatDescription, parseDescription, replaceSection, SCHEMA_INTRO } from '../description.js';
import type { NoteTypes } from '../service.js';
import { requireType } from './get-note-type-info.js';
import {
  fieldList,
  instructionLines,
  metadataSchemaInput,
  schemaLinesFrom,
  schemaLinesFromText,
} from './schema-input.js';
import { fieldName, fromFieldValue } from './field-value.js';
import { bool, str, strs, warningsOutput } from '../../../toolkit/tool-output.js';

export function typeHashMismatch(typeName: string, current: string, provided: string): NotekernelError {
  return new NotekernelError(
    'content_hash_mismatch',
    'Note type definition has been modified since last read. Please fetch the latest version with get_note_type_info.',
    { current_hash: current, provided_hash: provided, type_name: typeName },
  );
}

export function updateNoteTypeTool(types: NoteTypes, files: VaultFiles) {
  return defineTool({
    name: 'update_note_type',
    description:
      "Change a note type's description, agent instructions and/or metadata schema; the rest of its _description.md is kept.",
    input: z
      .object({
        type_name: nameString().min(1),
        content_hash: z
          .string({ error: 'content_hash is required: call get_note_type_info and pass its content_hash' })
          .describe('From get_note_type_info; refused if the type changed since'),
        instructions: z
          .union([z.string(), z.array(z.string())])
          .optional()
          .describe('Replace the agent instructions: one per line (bullets optional) or a list'),
        description: z.string().trim().min(1).optional().describe('New purpose'),
        metadata_schema: metadataSchemaInput.optional(),
        field: fieldName.optional().describe('Or: the one to set to value'),
        value: z.unknown().optional(),
        vault_id: vaultIdField,
      })
      .superRefine((args, issue) => {
        if (args.field !== undefined) {
          if (args.value === undefined)
            issue.addIssue({
              code: 'custom',
              path: ['value'],
              message: `value is required with field '${args.field}'`,
            });
          if (args[args.field] !== undefined)
            issue.addIssue({
              code: 'custom',
              path: ['field'],
              message: `${args.field} is given twice: as field/value and as ${args.field}; give one`,
            });
        } else if (args.value !== undefined) {
          issue.addIssue({
            code: 'custom',
            path: ['field'],
            message: 'value needs field: instructions, description or metadata_schema',
          });
        } else if (
          args.instructions === undefined &&
          args.description === undefined &&
          args.metadata_schema === undefined
        ) {
          issue.addIssue({
            code: 'custom',
            path: ['instructions'],
            message:
              'At least one of instructions, description or metadata_schema must be provided (or field with value)',
          });
        }
      }),
    output: z.object({
      success: bool,
      type_name: str,
      fields_updated: strs,
      updated_info: z.object({ name: str, purpose: str, agent_instructions: strs }),
      content_hash: str,
      ...warningsOutput,
    }),
    annotations: {
      title: 'Update note type',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    async handler(input, ctx) {
      const args = { ...input, ...fromFieldValue(input) };
      const info = await requireType(types, args.type_name);
      if (info.contentHash !== args.content_hash)
        throw typeHashMismatch(info.name, info.contentHash, args.content_hash);
      const current = info.description;
      let text =
        info.rawDescription ??
        formatDescription(info.name, current.purpose, current.agentInstructions, current.schemaLines);
      const fieldsUpdated: string[] = [];
      const warnings: string[] = [];
      if (args.instructions !== undefined) {
        const lines = instructionLines(args.instructions);
        if (lines.length === 0)
          throw new ValidationError('instructions holds no instruction; give at least one line.', {
            field: 'instructions',
          });
        text = replaceSection(
          text,
          'Agent Instructions',
          lines.map((l) => `- ${l}`),
        );
        fieldsUpdated.push('instructions');
      }
      if (args.description !== undefined) {
        text = replaceSection(text, 'Purpose', [args.description]);
        fieldsUpdated.push('description');
      }
      if (args.metadata_schema !== undefined || args.schema_lines !== undefined) {
        const schema = args.schema_lines
          ? schemaLinesFromText(ctx, args.schema_lines)
          : schemaLinesFrom(ctx, fieldList(args.metadata_schema ?? []));
        text = replaceSection(text, 'Metadata Schema', [SCHEMA_INTRO, ...schema.lines.map((l) => `- ${l}`)]);
        warnings.push(...schema.warnings);
        fieldsUpdated.push('metadata_schema');
      }
      let written;
      try {
        written = await files.writeText(types.descriptionPath(info.name), text, { expectedHash: args.content_hash });
      } catch (err) {
        if (err instanceof ContentHashMismatchError)
          throw typeHashMismatch(info.name, String(err.details.current_hash), args.content_hash);
        throw err;
      }
      const updated = parseDescription(text, info.name);
      return {
        success: true,
        type_name: info.name,
        fields_updated: fieldsUpdated,
        updated_info: { name: info.name, purpose: updated.purpose, agent_instructions: updated.agentInstructions },
        content_hash: written.contentHash,
        ...(warnings.length ? { warnings } : {}),
      };
    },
  });
}
