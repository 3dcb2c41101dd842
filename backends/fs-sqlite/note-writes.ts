/**
 * Writes of an fs-sqlite vault: each one under its note's lock, a compare-and-swap on the file's
 * hash (an update's change may be a function of the note read there), an atomic write, and the
 * index row in the same group commit as the writes finishing alongside it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { NoteUpdate } from '../../kernel/backend.js';
import { ConflictError, ContentHashMismatchError, NotFoundError, ValidationError } from '../../kernel/errors.js';
import type { Metadata, NewNote, Note, NoteChange, NoteEdit } from '../../kernel/note.js';
import { settle } from '../../kernel/util/settle.js';
import type { AtomicWriteOptions } from '../../toolkit/files/atomic-write.js';
import { Barrier } from '../../toolkit/files/barrier.js';
import type { WriteLocks } from '../../toolkit/files/write-locks.js';
import { slugify } from '../../toolkit/slugify.js';
import { serializeMarkdown, type ParsedMarkdown } from './frontmatter.js';
import { assertTypeName, isLayoutNoteFile, NOTE_SLUG, type Layout } from './layout.js';
import { assertStorableText, type NoteFiles, type NoteTarget, type WrittenFile } from './note-files.js';

/** What the writes need of the store around them. */
export interface WriteHost {
  readonly layout: Layout;
  readonly disk: NoteFiles;
  readonly locks: WriteLocks;
  /** Resolves when writes may run (the index is open). */
  ready(): Promise<void>;
  /** The written file's row, committed with the others finishing alongside it. */
  indexed(file: WrittenFile): Promise<Note>;
  unindex(id: string): void;
  readAt(loc: NoteTarget): Promise<Note | undefined>;
}

export class NoteWrites {
  constructor(private readonly host: WriteHost) {}

  /** Keyed by absolute path, the same key `files` uses, so the two write paths exclude each other. */
  private lock<T>(loc: NoteTarget, fn: () => Promise<T>): Promise<T> {
    return this.host.locks.run(loc.absolute, fn);
  }

  async create(input: NewNote): Promise<Note> {
    await this.host.ready();
    assertStorableText({ title: input.title, content: input.content });
    const type = assertTypeName(this.host.layout, input.type ?? this.host.layout.defaultType);
    const stem = slugify(input.slug ?? input.title, NOTE_SLUG);
    const filename = `${stem}.md`;
    const loc = this.host.disk.target(`${type}/${filename}`);
    const now = new Date().toISOString();
    // An imported note keeps its creation date (seed 000); the schema hook checked it is a date.
    const created = importedCreated(input.metadata) ?? now;
    const metadata: Metadata = {
      title: input.title,
      filename: stem,
      type,
      created,
      updated: now,
      ...customKeys(input.metadata),
    };
    if (metadata.tags === undefined) metadata.tags = input.tags ?? [];
    const made = await this.host.disk.onDisk(loc.relPath, () =>
      this.host.disk.ensureFolder(path.dirname(loc.absolute)),
    );
    // link() refuses an existing name, in this process or any other, so only this process's
    // lock is needed: it keeps our own watcher from indexing the file before we do.
    return this.host.locks.runLocal(loc.absolute, async () => {
      try {
        return await this.write(loc, serializeMarkdown(metadata, input.content), { exclusive: true });
      } catch (err) {
        await this.host.disk.unmake(made, path.dirname(loc.absolute));
        if (err instanceof ConflictError)
          throw new ConflictError(`A note with the filename '${filename}' already exists in the '${type}' note type`, {
            id: loc.id,
          });
        throw err;
      }
    });
  }

  async update(id: string, change: NoteChange | NoteEdit, expectedHash: string): Promise<Note> {
    await this.host.ready();
    const loc = this.host.disk.target(id);
    if (typeof change !== 'function') assertStorableText({ title: change.title, content: change.content });
    return this.lock(loc, async () => this.host.indexed(await this.swap(loc, change, expectedHash)));
  }

  /**
   * All locks first (sorted), then every item at once, so their writes share folder fsyncs and
   * one index transaction. Items naming the same note run in input order, as separate calls would.
   */
  async updateMany(items: readonly NoteUpdate[]): Promise<Array<PromiseSettledResult<Note>>> {
    await this.host.ready();
    const results: Array<PromiseSettledResult<Note>> = new Array(items.length);
    const byNote = new Map<string, Array<{ index: number; loc: NoteTarget; item: NoteUpdate }>>();
    items.forEach((item, index) => {
      try {
        const loc = this.host.disk.target(item.id);
        if (typeof item.change !== 'function')
          assertStorableText({ title: item.change.title, content: item.change.content });
        const queue = byNote.get(loc.absolute) ?? [];
        queue.push({ index, loc, item });
        byNote.set(loc.absolute, queue);
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    });
    await this.host.locks.runAll([...byNote.keys()], async () => {
      const written: Array<{ index: number; file: WrittenFile }> = [];
      // Each note's first write waits at one barrier before its fsync and at another before its
      // rename (AtomicWriteOptions.beforeSync, beforeRename).
      const synced = new Barrier(byNote.size);
      const renamed = new Barrier(byNote.size);
      await Promise.all(
        [...byNote.values()].map(async (queue) => {
          const passed = { sync: synced.passer(), rename: renamed.passer() };
          for (const { index, loc, item } of queue) {
            try {
              written.push({
                index,
                file: await this.swap(loc, item.change, item.expectedHash, {
                  beforeSync: passed.sync.pass,
                  beforeRename: passed.rename.pass,
                }),
              });
            } catch (reason) {
              results[index] = { status: 'rejected', reason };
            } finally {
              // Failed before a barrier, or a later write of the same note: not waited for.
              passed.sync.leave();
              passed.rename.leave();
            }
          }
        }),
      );
      // Every file is on disk: index them all in one transaction, before the locks go.
      await Promise.all(
        written.map(async ({ index, file }) => {
          results[index] = await settle(this.host.indexed(file));
        }),
      );
    });
    return results;
  }

  /** The compare-and-swap on the file; the caller holds the note's lock and indexes the result. */
  private async swap(
    loc: NoteTarget,
    edit: NoteChange | NoteEdit,
    expectedHash: string,
    phases: Pick<AtomicWriteOptions, 'beforeSync' | 'beforeRename'> = {},
  ): Promise<WrittenFile> {
    // What `get` does not read as a note (a flat layout's `_draft.md`) is not one to update either.
    if (!isLayoutNoteFile(this.host.layout, path.posix.basename(loc.relPath))) {
      throw new NotFoundError(`Note not found: ${loc.id}`, { identifier: loc.id });
    }
    const { bytes, text, hash, stats } = await this.host.disk.readRaw(loc);
    if (hash !== expectedHash) throw new ContentHashMismatchError(hash, expectedHash, { identifier: loc.id });
    let parsed: Pick<ParsedMarkdown, 'metadata' | 'body' | 'warnings'>;
    let change: NoteChange;
    if (typeof edit === 'function') {
      // One parse serves the edit and the write: the note as read is what the file says.
      const current = this.host.disk.noteRead(loc, bytes, stats, hash);
      parsed = { metadata: current.metadata, body: current.content, warnings: current.warnings ?? [] };
      change = await edit(current);
      assertStorableText({ title: change.title, content: change.content });
    } else {
      parsed = this.host.disk.parsedText(loc, text, hash, stats);
      change = edit;
    }
    const content = change.content ?? parsed.body;
    let next: string;
    if (parsed.warnings.length && change.metadata === undefined && change.title === undefined) {
      // Unreadable frontmatter is kept byte for byte when only the body changes.
      next = text.slice(0, text.length - parsed.body.length) + content;
    } else {
      const base = change.metadata ? customKeys(change.metadata) : customKeys(parsed.metadata);
      const metadata: Metadata = {
        ...pick(parsed.metadata, STORE_KEYS),
        ...base,
        updated: change.updated ?? new Date().toISOString(),
      };
      if (change.title !== undefined) metadata.title = change.title;
      if (change.tags !== undefined) metadata.tags = change.tags;
      next = serializeMarkdown(metadata, content);
    }
    return this.host.disk.writeFile(loc, next, phases);
  }

  async delete(id: string, expectedHash?: string): Promise<Note> {
    await this.host.ready();
    const loc = this.host.disk.target(id);
    return this.lock(loc, async () => {
      const note = await this.host.readAt(loc);
      if (!note) throw new NotFoundError(`Note not found: ${loc.id}`, { identifier: loc.id });
      if (expectedHash !== undefined && note.contentHash !== expectedHash) {
        throw new ContentHashMismatchError(note.contentHash, expectedHash, { identifier: loc.id });
      }
      await this.host.disk.onDisk(loc.relPath, () => fs.rm(loc.absolute));
      this.host.unindex(loc.id);
      this.host.disk.parsed.delete(loc.id);
      return note;
    });
  }

  async move(id: string, newType: string, expectedHash: string): Promise<Note> {
    await this.host.ready();
    const from = this.host.disk.target(id);
    const type = assertTypeName(this.host.layout, newType);
    const to = this.host.disk.target(`${type}/${path.posix.basename(from.relPath)}`);
    if (to.id === from.id)
      throw new ValidationError(`Note ${from.id} is already of type "${type}".`, { field: 'new_type' });
    return this.lock(from, async () => {
      const { text, hash, stats } = await this.host.disk.readRaw(from);
      if (hash !== expectedHash) throw new ContentHashMismatchError(hash, expectedHash, { identifier: from.id });
      const parsed = this.host.disk.parsedText(from, text, hash, stats);
      const metadata: Metadata = { ...parsed.metadata, type, updated: new Date().toISOString() };
      const made = await this.host.disk.onDisk(to.relPath, () =>
        this.host.disk.ensureFolder(path.dirname(to.absolute)),
      );
      let note: Note;
      try {
        // Our own watcher must not take the new file for another program's before it is indexed.
        note = await this.host.locks.runLocal(to.absolute, () =>
          this.write(to, serializeMarkdown(metadata, parsed.body), { exclusive: true }),
        );
      } catch (err) {
        await this.host.disk.unmake(made, path.dirname(to.absolute));
        if (err instanceof ConflictError)
          throw new ConflictError(
            `A note with the filename '${path.basename(to.absolute)}' already exists in the '${type}' note type`,
            { id: to.id },
          );
        throw err;
      }
      await this.host.disk.onDisk(from.relPath, () => fs.rm(from.absolute));
      this.host.unindex(from.id);
      this.host.disk.parsed.delete(from.id);
      return note;
    });
  }

  /** Writes and indexes: what every single-note write does. */
  private async write(loc: NoteTarget, text: string, options: { exclusive?: boolean } = {}): Promise<Note> {
    return this.host.indexed(await this.host.disk.writeFile(loc, text, options));
  }
}

/** Keys the store owns; callers change them only through dedicated operations. */
const STORE_KEYS = ['title', 'filename', 'type', 'created', 'updated'] as const;

/** `metadata.created` given on create, as the ISO instant it names; anything else is not one. */
function importedCreated(metadata: Metadata | undefined): string | undefined {
  const value = metadata?.created;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function customKeys(metadata: Metadata | undefined): Metadata {
  const out: Metadata = {};
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (!(STORE_KEYS as readonly string[]).includes(key) && value !== undefined) out[key] = value;
  }
  return out;
}

function pick(metadata: Metadata, keys: readonly string[]): Metadata {
  const out: Metadata = {};
  for (const key of keys) if (metadata[key] !== undefined) out[key] = metadata[key] as Metadata[string];
  return out;
}
