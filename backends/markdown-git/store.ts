/**
 * markdown-git's NoteStore: seed 002 entries as plain markdown files. The id lives in the
 * filename and never changes, so writes lock by id (a title change renames the file under the
 * same lock). Every write is a compare-and-swap on the file's sha256 and lands atomically;
 * reads go to the file and touch nothing on disk (no cache write, no lock, no commit).
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ExternalChange, NoteStore, NoteUpdate, RefreshReport, VaultFiles } from '../../kernel/backend.js';
import type { JournalStorage } from '../../kernel/journal.js';
import { FileJournal, type JournalWindow } from '../../toolkit/files/file-journal.js';
import { ConflictError, ContentHashMismatchError, NotFoundError, ValidationError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { ListQuery, Note, NoteChange, NoteEdit, NewNote, NoteSummary } from '../../kernel/note.js';
import type { ProgressReporter } from '../../kernel/progress.js';
import { writeFileAtomic } from '../../toolkit/files/atomic-write.js';
import { WriteLocks } from '../../toolkit/files/write-locks.js';
import { watchNoteFiles } from '../../toolkit/files/folder-watch.js';
import { resolveInside } from '../../toolkit/files/paths.js';
import { createVaultFiles } from '../../toolkit/files/vault-files.js';
import { readEntryFile, toNote, toSummary, type EntryRecord, type EntryTimes } from './entry-file.js';
import {
  applyChange,
  assertTitle,
  normaliseTags,
  parseEntry,
  renderEntry,
} from '../../toolkit/agent-memory/entry-format.js';
import { EntryIndex, filesOfId } from './entry-index.js';
import { rescanRoot } from './rescan.js';
import { BackgroundOpen } from './background-open.js';
import { readExternalChange } from './external-change.js';
import { assertText, placementFrom } from './entry-input.js';
import {
  entryFilename,
  filenameOf,
  idFromFilename,
  isEntryId,
  newId,
  normaliseId,
  placedPath,
  placementOf,
} from '../../toolkit/agent-memory/entry-name.js';
import type { AutoCommitter } from './git/auto-commit.js';
import type { GitTimestamps } from './git/timestamps.js';
import type { LocalCreated } from './local-created.js';

export interface StoreDeps {
  root: string;
  metaDir: string;
  logger: Logger;
  timestamps: GitTimestamps;
  localCreated: LocalCreated;
  committer?: AutoCommitter;
  /** A read-only vault writes nothing, not even a cache. */
  readOnly: boolean;
  /** How long closed operations stay undoable (decision 025). */
  journalWindow?: JournalWindow;
}

export class MarkdownGitStore implements NoteStore {
  readonly files: VaultFiles;
  readonly index = new EntryIndex();
  readonly journal: JournalStorage;
  private readonly locks: WriteLocks;
  private readonly root: string;
  private readonly stopWatchers = new Set<() => Promise<void>>();
  private readonly stopping: Array<Promise<void>> = [];
  private closed = false;
  /** The first scan of the root; every call that needs the entry index waits for it (`opened()`). */
  private readonly opening = new BackgroundOpen();

  constructor(private readonly deps: StoreDeps) {
    this.root = deps.root;
    this.locks = new WriteLocks(deps.root, path.join(deps.root, deps.metaDir, 'locks'));
    this.files = createVaultFiles(deps.root, this.locks);
    this.journal = new FileJournal(path.join(deps.root, deps.metaDir, 'journal'), deps.journalWindow);
  }

  async get(id: string): Promise<Note | undefined> {
    if (!isEntryId(id) && !isEntryId(`id__${id}`)) return undefined;
    const key = normaliseId(id);
    if (!this.opening.settled) return this.opening.early(this.getBeforeScan(key));
    await this.opened();
    const record = this.index.primary(key);
    if (!record) return undefined;
    await this.deps.timestamps.sync();
    const read = await readEntryFile(this.root, record.relPath, key);
    if (!read.ok) {
      if ('missing' in read) return undefined;
      throw new ValidationError(`Entry ${key} cannot be read: ${read.reason}.`, { id: key, path: record.relPath });
    }
    this.index.put(read.record); // memory only: the next list sees the bytes just read
    const others = this.index.all(key).filter((r) => r.relPath !== record.relPath);
    const warnings = others.map((r) => `${key} is also carried by ${r.relPath}: rename one of the two files`);
    return toNote(read.record, read.parsed, this.timesOf(read.record), warnings);
  }

  /**
   * A read before the first scan has finished (decision 034): the id's files are found by
   * listing the folders (names only) and read directly; their times come from the history
   * cache once HEAD is checked, or, cold, from git's log of the id's paths alone
   * (GitTimestamps.lookupEntry), so neither the scan of every other entry, nor the folder
   * watch, nor the history walk is waited for. It does not start the opening, and an opening due
   * meanwhile waits for it: the first read usually comes right after `initialize`, and the
   * watch alone holds this thread for 150–500 ms at 10,000 entries.
   * The answer is the one the entry index would give: the first readable file by path, with a
   * warning for each other file carrying the id.
   */
  private async getBeforeScan(key: string): Promise<Note | undefined> {
    const paths = await filesOfId(this.root, key);
    const reads = (await Promise.all(paths.map((rel) => readEntryFile(this.root, rel, key)))).filter((r) => r.ok);
    const [first, ...others] = reads;
    if (!first) return undefined;
    const git = await this.deps.timestamps.lookupEntry(key, paths, first.record.relPath, first.record.blobOid);
    // Memory only, as in get: the scan skips what is already level.
    for (const read of reads) this.index.put(read.record);
    const warnings = others.map((r) => `${key} is also carried by ${r.record.relPath}: rename one of the two files`);
    return toNote(first.record, first.parsed, this.timesOf(first.record, git), warnings);
  }

  async list(query: ListQuery = {}): Promise<NoteSummary[]> {
    await this.opened();
    if (query.type !== undefined) return []; // no types here: nothing is of any type
    await this.deps.timestamps.sync();
    const rows = this.index.records().map((r) => toSummary(r, this.timesOf(r)));
    const orderBy = query.orderBy ?? 'updated';
    const sign = query.direction === 'asc' ? 1 : -1;
    rows.sort((a, b) => {
      const x = orderBy === 'title' ? a.title : a[orderBy];
      const y = orderBy === 'title' ? b.title : b[orderBy];
      const order = x < y ? -1 : x > y ? 1 : 0;
      return order !== 0 ? order * sign : a.id < b.id ? -1 : a.id > b.id ? 1 : (a.path ?? '') < (b.path ?? '') ? -1 : 1;
    });
    const offset = query.offset ?? 0;
    return rows.slice(offset, query.limit !== undefined ? offset + query.limit : undefined);
  }

  async count(query: Pick<ListQuery, 'type'> = {}): Promise<number> {
    await this.opened();
    return query.type !== undefined ? 0 : this.index.size;
  }

  async create(input: NewNote): Promise<Note> {
    await this.opened();
    const title = assertTitle(input.title);
    const tags = normaliseTags(input.tags ?? []);
    assertText(input.content);
    const placement = placementFrom(input.metadata, { status: 'active' });
    let id = newId();
    while (this.index.has(id)) id = newId();
    const relPath = placedPath(entryFilename(input.slug ?? title, id), placement);
    return this.lock(id, async () => {
      const absolute = resolveInside(this.root, relPath);
      await fs.mkdir(path.dirname(absolute), { recursive: true });
      await writeFileAtomic(absolute, renderEntry(title, tags, input.content), { exclusive: true });
      // The file's own mtime, not the clock after the write: a new entry's createdAt then equals
      // its updatedAt instead of coming a few milliseconds later.
      this.deps.localCreated.set(id, (await fs.stat(absolute)).mtimeMs);
      const note = await this.reindex(id, relPath);
      await this.afterWrite({ added: [relPath], removed: [], message: `memory: capture ${title} (${id})` });
      return note;
    });
  }

  async update(id: string, edit: NoteChange | NoteEdit, expectedHash: string): Promise<Note> {
    await this.opened();
    const key = normaliseId(id);
    return this.lock(key, async () => {
      const record = this.requireSingle(key);
      const { text, hash, note: read } = await this.readRaw(record);
      if (hash !== expectedHash) throw new ContentHashMismatchError(hash, expectedHash, { identifier: key });
      const change = typeof edit === 'function' ? await edit(read()) : edit;
      if (change.title !== undefined) assertTitle(change.title);
      if (change.content !== undefined) assertText(change.content);
      const tags = change.tags !== undefined ? normaliseTags(change.tags) : undefined;
      const current = placementOf(record.relPath);
      const placement = change.metadata !== undefined ? placementFrom(change.metadata, { status: 'active' }) : current;
      const parsed = parseEntry(text);
      const next = applyChange(parsed, record.title, {
        ...(change.title !== undefined ? { title: change.title } : {}),
        ...(change.content !== undefined ? { content: change.content } : {}),
        ...(tags !== undefined ? { tags } : {}),
      });
      const renamed = change.title !== undefined && change.title !== record.title;
      const dir = path.posix.dirname(record.relPath);
      const filename = renamed ? entryFilename(change.title as string, key) : filenameOf(record.relPath);
      const relPath = placedPath(dir === '.' ? filename : `${dir}/${filename}`, placement);
      if (relPath === record.relPath) {
        await writeFileAtomic(resolveInside(this.root, relPath), next);
      } else {
        const target = resolveInside(this.root, relPath);
        await fs.mkdir(path.dirname(target), { recursive: true });
        // The file moves first, in one rename, then its text changes in place: a crash in between
        // leaves one file (the old text under the new name, which the journal recognises as the
        // note's before state), never the id on two files. The new name holds this entry's id, so
        // only a stray copy could hold it already: refused, never overwritten.
        if (fsSync.existsSync(target))
          throw new ConflictError(`File already exists: ${relPath}`, { id: key, path: relPath });
        await fs.rename(resolveInside(this.root, record.relPath), target);
        this.index.removePath(key, record.relPath);
        await writeFileAtomic(target, next);
      }
      const note = await this.reindex(key, relPath);
      const moved = relPath !== record.relPath ? [record.relPath] : [];
      await this.afterWrite({ added: [relPath], removed: moved, message: `memory: update ${note.title} (${key})` });
      return note;
    });
  }

  /** One commit per item still: the history shows each note's change on its own. */
  updateMany(items: readonly NoteUpdate[]): Promise<Array<PromiseSettledResult<Note>>> {
    return Promise.allSettled(items.map((item) => this.update(item.id, item.change, item.expectedHash)));
  }

  async delete(id: string, expectedHash?: string): Promise<Note> {
    await this.opened();
    const key = normaliseId(id);
    return this.lock(key, async () => {
      const record = this.requireSingle(key);
      const read = await readEntryFile(this.root, record.relPath, key);
      if (!read.ok) throw new NotFoundError(`Entry not found: ${key}`, { identifier: key });
      if (expectedHash !== undefined && read.record.contentHash !== expectedHash) {
        throw new ContentHashMismatchError(read.record.contentHash, expectedHash, { identifier: key });
      }
      const note = toNote(read.record, read.parsed, this.timesOf(read.record));
      await fs.rm(resolveInside(this.root, record.relPath));
      this.index.removePath(key, record.relPath);
      this.deps.localCreated.delete(key);
      await this.afterWrite({ added: [], removed: [record.relPath], message: `memory: delete ${note.title} (${key})` });
      return note;
    });
  }

  async refresh(progress?: ProgressReporter): Promise<RefreshReport> {
    await this.opened();
    const started = performance.now();
    this.deps.timestamps.relocate();
    await this.deps.timestamps.sync();
    const report = await this.rescan(progress);
    await this.deps.timestamps.save();
    return { ...report, ms: Math.round(performance.now() - started) };
  }

  /**
   * Runs `open` (the entry scan and history walk) behind the open: after `delayMs`, or at once
   * when a call needs the entries (BackgroundOpen). Calls that need the entries wait for the scan;
   * a failed scan fails them with its reason.
   */
  openInBackground(open: () => Promise<void>, delayMs = 0): void {
    this.opening.schedule(open, delayMs);
  }

  private opened(): Promise<void> {
    return this.opening.ready();
  }

  /** Reads every changed file (size or mtime differ from what the index holds). Memory only. */
  rescan(progress?: ProgressReporter): Promise<Omit<RefreshReport, 'ms'>> {
    return rescanRoot(this.root, this.index, this.deps.logger, progress);
  }

  /**
   * Follows entries other programs write (an editor, `git pull`, `git checkout`): one recursive
   * folder watch (decision 016); each reported path is re-read under its id's lock, so a write of
   * ours in flight finishes first and is not reported back. A file moved to another name keeps
   * its id: only the last file of an id going away is a delete.
   */
  watch(listener: (change: ExternalChange) => void): () => void {
    let stop: (() => Promise<void>) | undefined;
    let cancelled = false;
    // Node's recursive watch walks and watches every file (~150 ms of the main thread at 10,000
    // entries): it starts with the opening scan, not before `initialize` is answered. Started
    // before the scan reads anything, so no change falls between the two.
    this.opening.whenBegins(() => {
      if (cancelled || this.closed) return;
      stop = watchNoteFiles(
        this.root,
        { kind: 'flat', metaDir: this.deps.metaDir },
        this.deps.logger,
        async (relPaths) => {
          for (const rel of relPaths) {
            const change = await this.syncPath(rel);
            if (change) listener(change);
          }
        },
      );
      this.stopWatchers.add(stop);
    });
    return () => {
      cancelled = true;
      if (stop && this.stopWatchers.delete(stop)) this.stopping.push(stop());
    };
  }

  private async syncPath(rel: string): Promise<ExternalChange | undefined> {
    const id = idFromFilename(path.posix.basename(rel));
    if (id === undefined) return undefined;
    return this.lock(id, async () => {
      if (this.closed) return undefined;
      return readExternalChange(this.root, this.index, rel, id, this.deps.logger, (record) => this.timesOf(record));
    });
  }

  async close(): Promise<void> {
    await this.opened().catch(() => {});
    this.closed = true;
    for (const stop of this.stopWatchers) this.stopping.push(stop());
    this.stopWatchers.clear();
    await Promise.all(this.stopping);
    this.locks.close();
    if (!this.deps.readOnly) await this.deps.timestamps.save();
  }

  private timesOf(
    record: EntryRecord,
    git = this.deps.timestamps.lookup(record.id, record.relPath, record.blobOid),
  ): EntryTimes {
    const created = git.created ?? this.deps.localCreated.get(record.id) ?? record.birthtimeMs;
    const updated = git.updated ?? record.mtimeMs;
    // Rounded as Node's Stats dates are, so `updated` equals what `fs.stat().mtime` shows.
    return {
      created: new Date(Math.round(created)).toISOString(),
      updated: new Date(Math.round(updated)).toISOString(),
    };
  }

  private requireSingle(id: string): EntryRecord {
    const record = this.index.single(id);
    if (!record) throw new NotFoundError(`Entry not found: ${id}`, { identifier: id });
    return record;
  }

  private lock<T>(id: string, fn: () => Promise<T>): Promise<T> {
    // Keyed by id, not path: a rename changes the path under the same lock.
    return this.locks.run(path.join(this.root, id), fn);
  }

  private async reindex(id: string, relPath: string): Promise<Note> {
    const read = await readEntryFile(this.root, relPath, id);
    if (!read.ok) throw new NotFoundError(`Entry vanished right after writing: ${id}`, { identifier: id });
    this.index.put(read.record);
    return toNote(read.record, read.parsed, this.timesOf(read.record));
  }

  private async readRaw(record: EntryRecord): Promise<{ text: string; hash: string; note: () => Note }> {
    const read = await readEntryFile(this.root, record.relPath, record.id);
    if (!read.ok) {
      if ('missing' in read) throw new NotFoundError(`Entry not found: ${record.id}`, { identifier: record.id });
      throw new ValidationError(`Entry ${record.id} cannot be read: ${read.reason}.`, { id: record.id });
    }
    return {
      text: read.text,
      hash: read.record.contentHash,
      note: () => toNote(read.record, read.parsed, this.timesOf(read.record)),
    };
  }

  private async afterWrite(commit: { added: string[]; removed: string[]; message: string }): Promise<void> {
    const { committer, timestamps, localCreated, logger } = this.deps;
    if (committer) {
      try {
        await committer.commit(commit);
        timestamps.relocate();
        await timestamps.sync();
      } catch (err) {
        logger.error(
          { err, paths: [...commit.added, ...commit.removed] },
          'autoCommit failed: the write stands, uncommitted',
        );
      }
    }
    await Promise.all([timestamps.save(), localCreated.save((id) => timestamps.knows(id))]);
  }
}
