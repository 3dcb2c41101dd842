/**
 * seed 004's frontmatter operations on one file: `set` a field, `remove` it, `append` to a list.
 * The file is rewritten through the one frontmatter module: the body stays byte for byte, keys
 * not touched keep their place and their YAML text (toolkit/markdown/frontmatter.ts).
 */
import { ValidationError } from '../../kernel/errors.js';
import type { Metadata, MetadataValue } from '../../kernel/note.js';
import type { NoteService } from '../../kernel/notes.js';
import type { VaultFiles } from '../../kernel/backend.js';
import { NotFoundError } from '../../kernel/errors.js';
import { editableFrontmatter, replaceFrontmatter } from '../../toolkit/markdown/frontmatter.js';
import { readNoteText, writeNoteText, type NoteText } from '../../toolkit/files/note-text.js';

export const FRONTMATTER_OPERATIONS = ['set', 'remove', 'append'] as const;
export type FrontmatterOperation = (typeof FRONTMATTER_OPERATIONS)[number];

export interface FrontmatterEdit {
  field: string;
  value?: string | undefined;
  operation: FrontmatterOperation;
}

/** A value as the seed takes it: JSON for lists and mappings (`'["a", "b"]'`), any other text as a string. */
export function parseValue(value: string): MetadataValue {
  const trimmed = value.trim();
  if (/^[[{]/.test(trimmed)) {
    try {
      return JSON.parse(trimmed) as MetadataValue;
    } catch {
      throw new ValidationError(
        `value looks like JSON but does not parse: ${value.slice(0, 80)}. Quote it as a JSON string, or fix the JSON.`,
        { field: 'value' },
      );
    }
  }
  return value;
}

function applied(metadata: Metadata, edit: FrontmatterEdit): Metadata {
  const next: Metadata = { ...metadata };
  if (edit.operation === 'remove') {
    if (!(edit.field in next))
      throw new NotFoundError(`Field "${edit.field}" is not in the frontmatter; nothing was removed.`, {
        field: 'field',
        value: edit.field,
      });
    delete next[edit.field];
    return next;
  }
  if (edit.value === undefined)
    throw new ValidationError(`value is required for operation "${edit.operation}".`, { field: 'value' });
  const value = parseValue(edit.value);
  if (edit.operation === 'set') {
    next[edit.field] = value;
    return next;
  }
  const current = next[edit.field];
  const list: MetadataValue[] =
    current === undefined || current === null ? [] : Array.isArray(current) ? [...current] : [current];
  for (const item of Array.isArray(value) ? value : [value])
    if (!list.some((have) => JSON.stringify(have) === JSON.stringify(item))) list.push(item);
  next[edit.field] = list;
  return next;
}

/** Applies `edit` to the note at `rel`; returns the field's new value (undefined once removed). */
export async function editFrontmatter(
  notes: NoteService,
  files: VaultFiles,
  rel: string,
  edit: FrontmatterEdit,
): Promise<MetadataValue | undefined> {
  const planned = await planFrontmatter(files, rel, edit);
  if (planned.text !== planned.current.text) await writeNoteText(notes, files, rel, planned.text, planned.current.hash);
  return planned.value;
}

/** What `edit` makes of the note at `rel`, written nowhere: its text now, its new text, the field's new value. */
export async function planFrontmatter(
  files: VaultFiles,
  rel: string,
  edit: FrontmatterEdit,
): Promise<{ current: NoteText; text: string; value: MetadataValue | undefined }> {
  const current = await readNoteText(files, rel);
  if (!current) throw new NotFoundError(`No note at ${rel}.`, { path: rel });
  const next = applied(editableFrontmatter(current.text, rel), edit);
  return { current, text: replaceFrontmatter(current.text, next), value: next[edit.field] };
}
