/**
 * `save` (seed 003 §10.3): create a note, or change one at the version the caller read — the
 * whole `text`, or a `text_patch` applied to the text of that version. Backend-first: success
 * is reported only after Simplenote confirmed the write. Every argument is checked before
 * anything is sent, and a bad one is named.
 */
import type { Metadata } from '../../../kernel/note.js';
import { defineTool } from '../../../kernel/tool.js';
import { noteAtVersion, orVersionConflict } from '../current-note.js';
import { invalid } from '../errors.js';
import { noteDataOf, textOf, titleAndContent } from '../note-data.js';
import { SaveInputSchema, type NoteData, NoteDataSchema } from '../schemas.js';
import { applyTextPatch } from '../text-patch.js';

/** Far above any note a person writes; a larger text is almost surely a mistake (a file pasted whole). */
export const MAX_TEXT_BYTES = 1024 * 1024;

export const saveTool = defineTool({
  name: 'save',
  description:
    'Create a note (no id: give text, whose first line is the title) or change one (id + the local_version you read, and text or text_patch). text_patch: [{operation: addition|modification|deletion, line_number (1-based), value}], deletions and modifications addressing lines of the version you read, additions applied low to high at the line they take in the result. tags: single words. A note changed since you read it fails with a conflict: get it again and reapply. Returns the saved note, as get does.',
  input: SaveInputSchema,
  output: NoteDataSchema,
  annotations: {
    title: 'Save a note',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx): Promise<NoteData> {
    if (args.text !== undefined && args.text_patch !== undefined)
      throw invalid('text_patch', 'give either text or text_patch, not both.');
    if (args.text !== undefined) checkText(args.text, 'text');
    args.tags?.forEach((tag, i) => {
      if (tag === '' || /\s/u.test(tag))
        throw invalid(`tags.${i}`, `"${tag}" is not a Simplenote tag: tags are single words without spaces.`);
    });
    args.text_patch?.forEach((op, i) => {
      if (op.operation !== 'deletion' && op.value === undefined)
        throw invalid(`text_patch.${i}.value`, `an ${op.operation} needs a value.`);
    });
    const metadata: Metadata | undefined = args.trash !== undefined ? { deleted: args.trash } : undefined;

    if (args.id === undefined) {
      if (args.text_patch !== undefined)
        throw invalid('text_patch', 'a new note has no text to patch yet: give text (and no id).');
      if (args.text === undefined) throw invalid('text', 'a new note needs its text (the first line is the title).');
      const { note } = await ctx.notes.create({
        ...titleAndContent(args.text),
        ...(args.tags ? { tags: args.tags } : {}),
        ...(metadata ? { metadata } : {}),
      });
      return noteDataOf(note);
    }

    const id = args.id;
    const localVersion = args.local_version;
    if (localVersion === undefined)
      throw invalid(
        'local_version',
        `updating note ${id} needs the local_version you read (from get or list); without it a change made elsewhere could be overwritten.`,
      );
    const current = await noteAtVersion(ctx.notes, id, localVersion, args.server_version);
    const text = args.text_patch !== undefined ? applyTextPatch(textOf(current), args.text_patch) : args.text;
    if (text !== undefined && args.text_patch !== undefined) checkText(text, 'text_patch');
    const note = await orVersionConflict(id, localVersion, async () => {
      const change = {
        ...(text !== undefined ? titleAndContent(text) : {}),
        ...(args.tags ? { tags: args.tags } : {}),
        ...(metadata ? { metadata } : {}),
      };
      return (await ctx.notes.update(id, change, current.contentHash)).note;
    });
    return noteDataOf(note);
  },
});

function checkText(text: string, field: string): void {
  if (text.trim() === '')
    throw invalid(
      field,
      field === 'text'
        ? 'the text is empty; a note needs at least a title line (to remove a note, use manage with action trash).'
        : 'the patch leaves the note empty; a note needs at least a title line.',
    );
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_TEXT_BYTES)
    throw invalid(field, `the text is ${bytes} bytes; a note may hold at most ${MAX_TEXT_BYTES} bytes (1 MiB).`);
}
