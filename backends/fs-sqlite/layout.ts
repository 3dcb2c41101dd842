/**
 * Where notes live. `typed` (flint): `<type>/<name>.md`, one folder level, the folder is the
 * type, `_`-prefixed files belong to the type (its `_description.md`). `flat`: every `.md`
 * under the root, the first folder (or the default type) as the type.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../../kernel/errors.js';
import { normaliseRelative } from '../../kernel/util/paths.js';
import { TEMP_PREFIX } from '../../kernel/util/atomic-write.js';

export type LayoutKind = 'typed' | 'flat';

export interface NoteLocation {
  id: string;
  type: string;
  relPath: string;
}

export interface Layout {
  kind: LayoutKind;
  metaDir: string;
  defaultType: string;
}

const TYPE_NAME = /^[\p{L}\p{N}][\p{L}\p{N}_-]{0,63}$/u;

/** A type is a folder name: letters, digits, `_` and `-`, not hidden, not reserved. */
export function assertTypeName(layout: Layout, name: string): string {
  if (!TYPE_NAME.test(name) || name === layout.metaDir || name === 'node_modules') {
    throw new ValidationError(
      `Invalid note type name "${name.replace(/\0/g, '\\0')}": use letters, digits, "_" and "-" (starting with a letter or digit, at most 64), and not a reserved name.`,
      { field: 'type', value: name },
    );
  }
  return name;
}

/** `general/my-note.md`, `general/my-note` and `my-note` (default type) all name one note. */
export function locate(layout: Layout, identifier: string): NoteLocation {
  let rel = normaliseRelative(identifier.trim());
  if (!rel.toLowerCase().endsWith('.md')) rel += '.md';
  const segments = rel.split('/');
  if (layout.kind === 'typed') {
    if (segments.length === 1) segments.unshift(layout.defaultType);
    if (segments.length !== 2) throw new ValidationError(`Invalid note identifier "${identifier}": expected "type/filename.md".`, { field: 'identifier' });
    const [type, file] = segments as [string, string];
    assertTypeName(layout, type);
    if (file.startsWith('_') || file.startsWith('.')) throw new ValidationError(`"${identifier}" names a type file, not a note.`, { field: 'identifier' });
    return { id: `${type}/${file}`, type, relPath: `${type}/${file}` };
  }
  const id = segments.join('/');
  return { id, type: segments.length > 1 ? (segments[0] as string) : layout.defaultType, relPath: id };
}

export function isNoteFileName(name: string): boolean {
  return name.toLowerCase().endsWith('.md') && !name.startsWith('.') && !name.startsWith('_') && !name.startsWith(TEMP_PREFIX);
}

function isContentDir(layout: Layout, name: string): boolean {
  return !name.startsWith('.') && name !== layout.metaDir && name !== 'node_modules';
}

/** Every note file under the root; temp files left by an interrupted write go to `onTemp`. */
export async function listNoteFiles(layout: Layout, root: string, onTemp?: (relPath: string) => void): Promise<NoteLocation[]> {
  const out: NoteLocation[] = [];
  const top = await fs.readdir(root, { withFileTypes: true });
  for (const entry of top) {
    if (!entry.isDirectory() || !isContentDir(layout, entry.name)) {
      if (layout.kind === 'flat' && entry.isFile() && isNoteFileName(entry.name)) {
        out.push({ id: entry.name, type: layout.defaultType, relPath: entry.name });
      }
      continue;
    }
    if (layout.kind === 'typed') {
      if (!TYPE_NAME.test(entry.name)) continue;
      const files = await fs.readdir(path.join(root, entry.name), { withFileTypes: true });
      for (const file of files) {
        if (file.name.startsWith(TEMP_PREFIX)) onTemp?.(`${entry.name}/${file.name}`);
        if (file.isFile() && isNoteFileName(file.name)) {
          out.push({ id: `${entry.name}/${file.name}`, type: entry.name, relPath: `${entry.name}/${file.name}` });
        }
      }
    } else {
      await walkFlat(layout, root, entry.name, entry.name, out);
    }
  }
  return out;
}

async function walkFlat(layout: Layout, root: string, rel: string, type: string, out: NoteLocation[]): Promise<void> {
  const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
  for (const entry of entries) {
    const child = `${rel}/${entry.name}`;
    if (entry.isDirectory() && isContentDir(layout, entry.name)) await walkFlat(layout, root, child, type, out);
    else if (entry.isFile() && isNoteFileName(entry.name)) out.push({ id: child, type, relPath: child });
  }
}

/** flint's filename rule, made Unicode-aware: letters and digits of any script are kept. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFC')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    // A leading `_` or `.` would make the file a type file or hidden.
    .replace(/^[-_]+|-+$/g, '');
  // Cut by code points, never inside a surrogate pair.
  const capped = [...slug].slice(0, 100).join('').replace(/-+$/, '');
  return capped || 'untitled';
}
