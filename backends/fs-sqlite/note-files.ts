/**
 * The note files of an fs-sqlite vault, one file at a time: where an id lives, reading a note's
 * bytes (skipping what is not a plain file), parsing them through the parsed-note cache, and
 * writing them atomically with the failure named as the error catalogue has it. The store adds
 * locks and the index around these.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { constants as fsConstants, type Stats } from 'node:fs';
import { ValidationError, NotFoundError, systemFault } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { Note } from '../../kernel/note.js';
import { contentHash } from '../../toolkit/hash.js';
import { writeFileAtomic, type AtomicWriteOptions } from '../../toolkit/files/atomic-write.js';
import { DirectorySync } from '../../toolkit/files/directory-sync.js';
import { resolveInside } from '../../toolkit/files/paths.js';
import { RetiredFiles } from '../../toolkit/files/retired-files.js';
import { readSmallFile, isSkipped, type FileRead } from '../../toolkit/files/small-file.js';
import { parseMarkdown, type ParsedMarkdown } from './frontmatter.js';
import { assertTypeName, locate, type Layout, type NoteLocation } from './layout.js';
import { decodeNoteBytes, readNoteFile } from './note-file.js';
import { ParsedNotes } from './parsed-notes.js';

export type NoteTarget = NoteLocation & { absolute: string };
/** A note file just written, not yet in the index. */
export type WrittenFile = { note: Note; mtimeMs: number; cacheKey: string };

export class NoteFiles {
  readonly parsed = new ParsedNotes();
  readonly folders = new Set<string>();
  private readonly directories = new DirectorySync();
  private readonly retired = new RetiredFiles();

  constructor(
    private readonly root: string,
    private readonly layout: Layout,
    private readonly logger: Logger,
  ) {}

  /** Where an id lives, resolved (and checked against the vault) once per operation. */
  target(id: string): NoteTarget {
    const loc = locate(this.layout, id);
    return { ...loc, absolute: resolveInside(this.root, loc.relPath) };
  }

  /** Type folders are created once per process, not checked on every write. */
  async ensureFolder(dir: string): Promise<string | undefined> {
    if (this.folders.has(dir)) return undefined;
    const made = await fs.mkdir(dir, { recursive: true });
    this.folders.add(dir);
    return made;
  }

  /** The folder a failed write made goes again (while empty): a refused write leaves no new type behind. */
  async unmake(made: string | undefined, dir: string): Promise<void> {
    if (made === undefined) return;
    this.folders.delete(dir);
    await fs.rmdir(made).catch(() => undefined);
  }

  /** File-system work on one note: its failure named as the catalogue has it (no_space, permission_denied, read_only), with the note's path. */
  async onDisk<T>(relPath: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw systemFault(err, relPath) ?? err;
    }
  }

  /** The one place a written note becomes a Note: atomically written, parsed from the very bytes on disk (no re-read). */
  async writeFile(
    loc: NoteTarget,
    text: string,
    options: Pick<AtomicWriteOptions, 'exclusive' | 'beforeSync' | 'beforeRename'> = {},
  ): Promise<WrittenFile> {
    const bytes = Buffer.from(text, 'utf8');
    const write = () =>
      writeFileAtomic(loc.absolute, bytes, {
        ...options,
        syncDirectory: (dir) => this.directories.sync(dir),
        retireOld: (file) => this.retired.add(file),
      });
    let stats: Stats;
    try {
      stats = await write();
    } catch (err) {
      // The folder was removed behind our back (we remember it as created): make it again.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw systemFault(err, loc.relPath) ?? err;
      const dir = path.dirname(loc.absolute);
      this.folders.delete(dir);
      stats = await this.onDisk(loc.relPath, async () => {
        await this.ensureFolder(dir);
        return write();
      });
    }
    const note = this.toNote(loc, bytes, stats);
    return { note, mtimeMs: stats.mtimeMs, cacheKey: ParsedNotes.key(note.contentHash, stats) };
  }

  toNote(loc: NoteTarget, bytes: Buffer, stats: Stats, hash = contentHash(bytes)): Note {
    const decoded = decodeNoteBytes(bytes);
    if (!decoded.ok)
      throw new ValidationError(`Note ${loc.id} cannot be read: ${decoded.reason}.`, { identifier: loc.id });
    return readNoteFile({
      id: loc.id,
      type: loc.type,
      absolutePath: loc.absolute,
      bytes,
      text: decoded.text,
      stats,
      contentHash: hash,
    });
  }

  /** The note these bytes hold: the parsed-note cache's copy when these exact bytes were read before. */
  noteRead(loc: NoteTarget, bytes: Buffer, stats: Stats, hash: string): Note {
    const key = ParsedNotes.key(hash, stats);
    const cached = this.parsed.get(loc.id, key, () => decodedText(bytes));
    if (cached) return cached;
    const note = this.toNote(loc, bytes, stats, hash);
    this.parsed.set(loc.id, key, note);
    return note;
  }

  async readRaw(loc: NoteTarget): Promise<{ bytes: Buffer; text: string; hash: string; stats: Stats }> {
    const read = await this.readFileAt(loc);
    if (!read) throw new NotFoundError(`Note not found: ${loc.id}`, { identifier: loc.id });
    const bytes = read.bytes;
    const decoded = decodeNoteBytes(bytes);
    if (!decoded.ok)
      throw new ValidationError(`Note ${loc.id} cannot be read: ${decoded.reason}.`, { identifier: loc.id });
    return { bytes, text: decoded.text, hash: contentHash(bytes), stats: read.stats };
  }

  /** A note file's bytes; a FIFO, socket, device or hard-linked file is no note: skipped with a warning. */
  async readFileAt(loc: NoteTarget): Promise<FileRead | undefined> {
    const read = await readSmallFile(loc.absolute, { readHardLinks: this.layout.readHardLinks === true });
    if (!isSkipped(read)) return read;
    this.logger.warn({ path: loc.relPath, reason: read.skipped }, 'note file skipped');
    return undefined;
  }

  /** The frontmatter and body of text just read: from the parsed-note cache when these exact bytes were parsed before. */
  parsedText(
    loc: NoteTarget,
    text: string,
    hash: string,
    stats: Stats,
  ): Pick<ParsedMarkdown, 'metadata' | 'body' | 'warnings'> {
    const cached = this.parsed.get(loc.id, ParsedNotes.key(hash, stats), () => text);
    return cached
      ? { metadata: cached.metadata, body: cached.content, warnings: cached.warnings ?? [] }
      : parseMarkdown(text);
  }

  /** A type folder the scan could not read lists as that error, not as an empty type. */
  async assertReadableType(type: string): Promise<void> {
    if (this.layout.kind !== 'typed') return;
    let folder: string;
    try {
      folder = resolveInside(this.root, type);
    } catch {
      return; // not a folder name: the listing is empty, as for any type without notes
    }
    try {
      await fs.access(folder, fsConstants.R_OK | fsConstants.X_OK);
    } catch (err) {
      const fault = systemFault(err, `${type}/`);
      if (fault) throw fault;
    }
  }

  /** The folders at the vault's top that are type-shaped names (typed layout: a type each). */
  async typeFolders(): Promise<string[]> {
    const types: string[] = [];
    for (const entry of await fs.readdir(this.root, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      try {
        types.push(assertTypeName(this.layout, entry.name));
      } catch {
        // hidden, reserved or not a type-shaped folder name
      }
    }
    return types;
  }

  close(): void {
    this.retired.close();
  }
}

export function decodedText(bytes: Buffer): string | undefined {
  const decoded = decodeNoteBytes(bytes);
  return decoded.ok ? decoded.text : undefined;
}

/** A NUL byte makes a file binary: it could be written but never read back as a note. */
export function assertStorableText(fields: Record<string, string | undefined>): void {
  for (const [field, value] of Object.entries(fields)) {
    if (value?.includes('\0'))
      throw new ValidationError(`${field} contains a NUL byte, which a note file cannot hold.`, { field });
  }
}
