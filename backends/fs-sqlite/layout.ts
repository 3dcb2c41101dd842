/**
 * Where notes live. `typed` (flint): `<type>/<name>.md`, one folder level, the folder is the
 * type, `_`-prefixed files belong to the type (its `_description.md`). `flat`: every `.md`
 * under the root, the first folder (or the default type) as the type.
 */
import { ValidationError } from '../../kernel/errors.js';
import { normaliseRelative } from '../../toolkit/files/paths.js';
import { folderOf, isNoteFileName, scanFiles, type FileScan, type ScanRules } from '../../toolkit/files/file-scan.js';
import type { SlugRule } from '../../toolkit/slugify.js';

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
  /** Read note files with more than one hard link (off by default: one may lead outside the vault). */
  readHardLinks?: boolean;
  /** In `flat`, `_`-prefixed files are notes too (in `typed` they belong to their type). */
  underscoreNotes?: boolean;
}

/** Whether a file name is a note's in this layout. */
export function isLayoutNoteFile(layout: Layout, name: string): boolean {
  return isNoteFileName(name, layout.kind === 'flat' && layout.underscoreNotes === true);
}

/** The scan rules a layout reads a vault with. */
export function scanRulesOf(layout: Layout): ScanRules {
  return {
    readHardLinks: layout.readHardLinks === true,
    underscoreNotes: layout.kind === 'flat' && layout.underscoreNotes === true,
  };
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
    if (segments.length !== 2)
      throw new ValidationError(`Invalid note identifier "${identifier}": expected "type/filename.md".`, {
        field: 'identifier',
      });
    const [type, file] = segments as [string, string];
    assertTypeName(layout, type);
    if (file.startsWith('_') || file.startsWith('.'))
      throw new ValidationError(`"${identifier}" names a type file, not a note.`, { field: 'identifier' });
    return { id: `${type}/${file}`, type, relPath: `${type}/${file}` };
  }
  const id = segments.join('/');
  return { id, type: segments.length > 1 ? (segments[0] as string) : layout.defaultType, relPath: id };
}

export { isNoteFileName };

function isContentDir(layout: Layout, name: string): boolean {
  return !name.startsWith('.') && name !== layout.metaDir && name !== 'node_modules';
}

export interface ScannedNote extends NoteLocation {
  /** The file's position in the scan (its stats are at `index * STATS_PER_FILE`). */
  index: number;
}

/** Which files of a scan are notes: in `typed`, `<type>/<name>.md` one level down; in `flat`, any depth. */
export function notesInScan(layout: Layout, scan: FileScan): ScannedNote[] {
  const out: ScannedNote[] = [];
  // Folders repeat (10,000 notes in a handful of type folders): each is judged once.
  const folderType = new Map<string, string | null>();
  scan.paths.forEach((relPath, index) => {
    const folder = folderOf(relPath);
    let type = folderType.get(folder);
    if (type === undefined) folderType.set(folder, (type = typeOfFolder(layout, folder)));
    if (type !== null && isLayoutNoteFile(layout, relPath.slice(folder ? folder.length + 1 : 0)))
      out.push({ id: relPath, type, relPath, index });
  });
  return out;
}

/**
 * The note type of the notes in `folder` (relative, '' for the root), or null when the layout
 * keeps no notes there: in `typed`, type folders one level down; in `flat`, any folder outside
 * hidden, reserved and metadata folders.
 */
export function typeOfFolder(layout: Layout, folder: string): string | null {
  const segments = folder ? folder.split('/') : [];
  if (!segments.every((dir) => isContentDir(layout, dir))) return null;
  if (layout.kind === 'typed') return segments.length === 1 && TYPE_NAME.test(folder) ? folder : null;
  return segments[0] ?? layout.defaultType;
}

/**
 * The markdown files of a scan that the layout does not read as notes, and why (`typed` keeps
 * notes one folder down only): the first thing a user opening an existing folder needs to see.
 * Nothing to do (no per-file work) when every folder that holds markdown is a note folder.
 */
export function skippedByLayout(layout: Layout, scan: FileScan): Array<{ path: string; reason: string }> {
  const outside = new Map<string, string>();
  for (const folder of scan.folders.keys())
    if (typeOfFolder(layout, folder) === null) outside.set(folder, layoutReason(layout, folder));
  if (!outside.size) return [];
  const skipped: Array<{ path: string; reason: string }> = [];
  for (const relPath of scan.paths) {
    const reason = outside.get(folderOf(relPath));
    if (reason !== undefined && isNoteFileName(relPath.slice(relPath.lastIndexOf('/') + 1)))
      skipped.push({ path: relPath, reason });
  }
  return skipped;
}

function layoutReason(layout: Layout, folder: string): string {
  if (folder === '') return 'at the vault root, outside any type folder (the typed layout reads <type>/<name>.md)';
  if (folder.includes('/')) return 'in a nested folder (the typed layout reads <type>/<name>.md, one level down)';
  return 'in a folder that is not a note type (type names use letters, digits, _ and -)';
}

/** What opens a folder as it is, for a layout that left files out. */
export const LAYOUT_HINT = 'storage.options.layout: flat (or the zettelkasten profile) reads markdown in every folder';

/** Every note file under the root. */
export function listNoteFiles(layout: Layout, root: string): NoteLocation[] {
  return notesInScan(layout, scanFiles(root, scanRulesOf(layout))).map(({ id, type, relPath }) => ({
    id,
    type,
    relPath,
  }));
}

/** flint's filename rule, made Unicode-aware (`kernel/util/slugify.ts`). */
export const NOTE_SLUG: SlugRule = { dashes: 'whitespace', maxLength: 100 };
