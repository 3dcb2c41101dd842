/**
 * `get` (seed 003 §10.2): one note, read from Simplenote itself (the cache is refreshed with it),
 * whole or a range of lines. A range past the end returns up to the end; text_is_partial says
 * whether the text returned is less than the whole.
 */
import { NotFoundError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool.js';
import { invalid } from '../errors.js';
import { noteDataOf, textOf, versionOf } from '../note-data.js';
import { GetInputSchema, type NoteData, NoteDataSchema } from '../schemas.js';

export const getTool = defineTool({
  name: 'get',
  description:
    "Read one note by id (a list item's uuid), fresh from Simplenote. range_line_start (1-based) and range_line_count return part of the text; text_total_lines and text_is_partial tell what was left out. Returns {id, local_version, server_version, text, tags, modified_at, created_at, trash, ...}; pass local_version to save when changing it.",
  input: GetInputSchema,
  output: NoteDataSchema,
  annotations: { title: 'Read a note', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx): Promise<NoteData> {
    const note = await ctx.notes.get(args.id);
    if (!note)
      throw new NotFoundError(`id: no note ${args.id} (deleted, or never existed).`, {
        field: 'id',
        identifier: args.id,
      });
    // local_version (seed 003 §9): the version the caller holds; a note that moved on says so.
    const current = versionOf(note);
    if (args.local_version !== undefined && args.local_version !== current) {
      const moved = `local_version ${args.local_version}: the note is at version ${current} now (changed since that version was read); this is version ${current}.`;
      note.warnings = [...(note.warnings ?? []), moved];
    }
    const text = textOf(note);
    const lines = text.split('\n');
    if (args.range_line_start === undefined && args.range_line_count === undefined)
      return { ...noteDataOf(note, text), text_is_partial: false, text_total_lines: lines.length };
    const start = args.range_line_start ?? 1;
    if (start > lines.length)
      throw invalid('range_line_start', `line ${start} is past the end: the note has ${lines.length} line(s).`);
    const picked = lines.slice(
      start - 1,
      args.range_line_count === undefined ? undefined : start - 1 + args.range_line_count,
    );
    return {
      ...noteDataOf(note, picked.join('\n')),
      text_is_partial: picked.length < lines.length,
      text_total_lines: lines.length,
      range_line_start: start,
      range_line_count: picked.length,
    };
  },
});
