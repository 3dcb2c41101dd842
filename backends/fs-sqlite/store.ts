/**
 * fs-sqlite's NoteStore: markdown files with YAML frontmatter are the truth; every write is a
 * compare-and-swap under a per-note lock, lands atomically, and updates the index in the same
 * step. Reads go to the file, so a read always reflects the disk and its current hash.
 */
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ExternalChange, IndexPassObserver, NoteStore, NoteUpdate, RefreshReport, VaultFiles } from '../../kernel/backend.js';
import type { JournalStorage } from '../../kernel/journal.js';
import { DEFAULT_JOURNAL_WINDOW, FileJournal, type JournalWindow } from '../../toolkit/files/file-journal.js';
import { ConflictError, ContentHashMismatchError, NotFoundError, ValidationError, systemFault } from '../../kernel/errors.js';
import type { FaultReporter } from '../../kernel/faults.js';
import { LaggingRows } from './lagging-rows.js';
import type { Logger } from '../../kernel/logger.js';
import type { ListQuery, Metadata, Note, NoteChange, NoteEdit, NewNote, NoteSummary } from '../../kernel/note.js';
import type { ProgressReporter } from '../../kernel/progress.js';
import type { Stats } from 'node:fs';
import { writeFileAtomic, type AtomicWriteOptions } from '../../toolkit/files/atomic-write.js';
import { Barrier } from '../../toolkit/files/barrier.js';
import { DirectorySync } from '../../toolkit/files/directory-sync.js';
import { GroupCommit } from '../../toolkit/files/group-commit.js';
import { readSmallFile, isSkipped, type FileRead } from '../../toolkit/files/small-file.js';
import { settle } from '../../kernel/util/settle.js';
import { RetiredFiles } from '../../toolkit/files/retired-files.js';
import { ParsedNotes } from './parsed-notes.js';
import { contentHash } from '../../toolkit/hash.js';
import { WriteLocks } from '../../toolkit/files/write-locks.js';
import { normaliseRelative, resolveInside } from '../../toolkit/files/paths.js';
import { createVaultFiles } from '../../toolkit/files/vault-files.js';
import { slugify } from '../../toolkit/slugify.js';
import { parseMarkdown, serializeMarkdown, type ParsedMarkdown } from './frontmatter.js';
import type { IndexDb, IndexedNote } from './index-db.js';
import { assertTypeName, isLayoutNoteFile, locate, LAYOUT_HINT, NOTE_SLUG, typeOfFolder, type Layout, type NoteLocation } from './layout.js';
import { decodeNoteBytes, readNoteFile, toIndexed } from './note-file.js';
import { refreshIndex } from './refresh.js';
import { IndexFreshness, RefreshStopped } from './index-freshness.js';
import { watchNoteFiles } from '../../toolkit/files/folder-watch.js';
import { createIndexDatabase, type PluginTables } from './plugin-tables.js';
import { IndexHealing } from './index-healing.js';
import { isCorruptionError } from './index-recovery.js';
import type { IndexDatabase } from '../../kernel/index-database.js';
import { describeSkipped } from '../../toolkit/files/skip-summary.js';

type NoteTarget = NoteLocation & { absolute: string };
/** A note file just written, not yet in the index. */
type WrittenFile = { note: Note; mtimeMs: number; cacheKey: string };

/**
 * How long after the open the first refresh starts unless a call needs the index sooner: long
 * enough for a client's handshake and first calls, short against a person's next request.
 */
const BACKGROUND_REFRESH_DELAY_MS = 200;
/** A failed refresh is tried again by a call that needs the rows, at most this often. */
const REFRESH_RETRY_MS = 1_000;

/** Keys the store owns; callers change them only through dedicated operations. */
const STORE_KEYS = ['title', 'filename', 'type', 'created', 'updated'] as const;

export class FsSqliteStore implements NoteStore {
  readonly files: VaultFiles;
  readonly indexDb: IndexDatabase;
  readonly journal: JournalStorage;
  private readonly tables: PluginTables;
  private readonly healing: IndexHealing;
  /** What follows the opening refresh (search upkeep); a rebuild runs it again. */
  private afterwards: () => void = () => {};
  private readonly locks: WriteLocks;
  private readonly directories = new DirectorySync();
  /** Writes finishing together share one transaction (and one FTS5 segment instead of one each). */
  private readonly indexWrites: GroupCommit<IndexedNote>;
  private readonly folders = new Set<string>();
  private readonly parsed = new ParsedNotes();
  private readonly retired = new RetiredFiles();
  private readonly freshness = new IndexFreshness();
  private readonly stopWatchers = new Set<() => Promise<void>>();
  private readonly stopping: Array<Promise<void>> = [];
  private readonly passObservers = new Set<IndexPassObserver>();
  /** Rows the index could not take (a full disk): the notes are stored, their rows retried. */
  private readonly lagging: LaggingRows;
  /** When a failed refresh was last tried again (see `ready`). */
  private lastRetry = 0;
  /** Note files the refresh under way found changed and has not applied all of yet (0: none known). */
  private behind = 0;
  /** Set by `watch()`: a server, which follows the files and gains from answering before the refresh. */
  private following = false;
  private closed = false;

  constructor(
    readonly root: string,
    readonly layout: Layout,
    private readonly db: IndexDb,
    private readonly logger: Logger,
    faults: FaultReporter,
    /** The `defaultType` option when the config sets it (NoteStore.defaultType). */
    readonly defaultType?: string,
    window: JournalWindow = DEFAULT_JOURNAL_WINDOW,
  ) {
    this.lagging = new LaggingRows((id) => this.repairRow(id), faults);
    this.locks = new WriteLocks(root, path.join(root, layout.metaDir, 'locks'));
    this.files = createVaultFiles(root, this.locks);
    this.journal = new FileJournal(path.join(root, layout.metaDir, 'journal'), window);
    this.tables = createIndexDatabase(db.db, () => db.afterWrite(), path.dirname(db.file));
    this.indexDb = this.tables;
    this.healing = new IndexHealing(db, this.tables, this.freshness, this.refreshWith(undefined), logger, () => this.afterwards());
    this.indexWrites = new GroupCommit((notes) => db.transaction(() => notes.forEach((n) => db.upsert(n))));
  }

  /**
   * Brings the index up to date, in slices (requests are served meanwhile): the opening refresh
   * when it has not begun yet, else one more after any under way.
   */
  refresh(progress?: ProgressReporter): Promise<RefreshReport> {
    return this.freshness.refresh(this.refreshWith(progress));
  }

  /**
   * Opening: the first refresh, then `afterwards` (search upkeep), run in the background, starting
   * shortly after the open or at the first call that needs index rows; such calls wait for both,
   * reads of a note file do not (index-freshness.ts).
   */
  refreshInBackground(progress: ProgressReporter | undefined, afterwards: () => void): void {
    const refresh = this.refreshWith(progress);
    this.afterwards = afterwards;
    this.freshness.later(
      async (pause) => {
        const built = this.db.empty();
        const report = await refresh(pause);
        this.logger.info({ scanned: report.scanned, indexed: report.indexed, removed: report.removed, ms: report.ms }, 'index ready');
        // Once per open, summarised: `notekernel index` lists them grouped, with examples.
        if (report.skipped.length) this.logger.warn({ skippedFiles: report.skipped.length, ...(this.layout.kind === 'typed' ? { hint: LAYOUT_HINT } : {}) }, describeSkipped(report.skipped));
        afterwards();
        // An index this open built from empty holds no page older than this process: a check
        // would read all of it (at 100,000 notes ~85 MB more memory at the end of `index`) to
        // find nothing. Damage met later still starts one (`suspect`).
        if (!built || report.indexed === 0) this.healing.checkInBackground();
        return report;
      },
      BACKGROUND_REFRESH_DELAY_MS,
      (err) => {
        if (!(err instanceof RefreshStopped)) this.logger.error({ err }, 'the index could not be brought up to date');
      },
    );
  }

  private refreshWith(progress: ProgressReporter | undefined): (pause: () => Promise<void>) => Promise<RefreshReport> {
    return async (pause) => {
      try {
        return await refreshIndex(this.root, this.layout, this.db, this.logger, {
          pause,
          observers: this.passObservers,
          onBehind: (files) => (this.behind = files),
          ...(progress ? { progress } : {}),
        });
      } finally {
        this.behind = 0;
      }
    };
  }

  /**
   * A served vault (one that follows the files, `watch()`) answers searches and link queries from
   * the index as it stands while the refresh catches up, when a refresh once brought it level
   * with the files (a note app answers from its last index too); a first build is waited for, and
   * so is the refresh by a one-shot call, which has no later answer to gain it for. Writes still
   * wait (`freshness.ready()`), so whatever a caller wrote is in the rows its next read sees. The
   * notice says when the rows are known to lag.
   */
  async whenReadable(): Promise<{ lagging?: string }> {
    await this.freshness.readable(this.following && this.db.everLevel());
    if (this.behind === 0 || !this.freshness.busy) return {};
    return { lagging: `The index is catching up with ${this.behind} note file${this.behind === 1 ? '' : 's'} changed since it was last updated; these results may not reflect them yet.` };
  }

  async snapshotToken(): Promise<string | undefined> {
    await this.ready();
    const digest = this.db.filesDigest();
    return digest === undefined ? undefined : `files:${digest}:${this.db.count()}`;
  }

  observeIndexPass(observer: IndexPassObserver): () => void {
    this.passObservers.add(observer);
    return () => void this.passObservers.delete(observer);
  }

  /** Resolves when the index rows can be read and written (no refresh under way). */
  whenIndexed(): Promise<void> {
    return this.ready();
  }

  /**
   * Resolves when the index rows can be read and written. A refresh that failed (a full disk,
   * say) is tried again by the next call that needs the rows, at most once a second, so the
   * vault recovers by itself once the cause is gone.
   */
  private async ready(): Promise<void> {
    try {
      await this.freshness.ready();
    } catch (err) {
      if (this.closed || Date.now() - this.lastRetry < REFRESH_RETRY_MS) throw err;
      this.lastRetry = Date.now();
      await this.refresh().catch(() => undefined);
      await this.freshness.ready();
    }
  }

  readsNoteAt(relPath: string): boolean {
    let rel: string;
    try {
      rel = normaliseRelative(relPath);
    } catch {
      return false; // a path that leads out of the vault holds no note of it
    }
    const slash = rel.lastIndexOf('/');
    return typeOfFolder(this.layout, slash < 0 ? '' : rel.slice(0, slash)) !== null && isLayoutNoteFile(this.layout, rel.slice(slash + 1));
  }

  async get(id: string): Promise<Note | undefined> {
    return this.readAt(this.target(id));
  }

  async list(query?: ListQuery): Promise<NoteSummary[]> {
    await this.ready();
    if (query?.type !== undefined) await this.assertReadableType(query.type);
    return this.db.list(query);
  }

  /** A type folder the scan could not read lists as that error, not as an empty type. */
  private async assertReadableType(type: string): Promise<void> {
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

  async count(query?: Pick<ListQuery, 'type'>): Promise<number> {
    await this.ready();
    return this.db.count(query?.type);
  }

  async listTypes(): Promise<string[]> {
    await this.ready();
    const entries = await fs.readdir(this.root, { withFileTypes: true });
    const types = new Set(this.db.typeCounts().keys());
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      try {
        types.add(assertTypeName(this.layout, entry.name));
      } catch {
        // hidden, reserved or not a type-shaped folder name
      }
    }
    return [...types].sort((a, b) => a.localeCompare(b));
  }

  async create(input: NewNote): Promise<Note> {
    await this.ready();
    assertStorableText({ title: input.title, content: input.content });
    const type = assertTypeName(this.layout, input.type ?? this.layout.defaultType);
    const stem = slugify(input.slug ?? input.title, NOTE_SLUG);
    const filename = `${stem}.md`;
    const loc = this.target(`${type}/${filename}`);
    const now = new Date().toISOString();
    // An imported note keeps its creation date (seed 000); the schema hook checked it is a date.
    const created = importedCreated(input.metadata) ?? now;
    const metadata: Metadata = { title: input.title, filename: stem, type, created, updated: now, ...customKeys(input.metadata) };
    if (metadata.tags === undefined) metadata.tags = input.tags ?? [];
    const made = await this.onDisk(loc.relPath, () => this.ensureFolder(path.dirname(loc.absolute)));
    // link() refuses an existing name, in this process or any other, so only this process's
    // lock is needed: it keeps our own watcher from indexing the file before we do.
    return this.locks.runLocal(loc.absolute, async () => {
      try {
        return await this.write(loc, serializeMarkdown(metadata, input.content), { exclusive: true });
      } catch (err) {
        await this.unmake(made, path.dirname(loc.absolute));
        if (err instanceof ConflictError) throw new ConflictError(`A note with the filename '${filename}' already exists in the '${type}' note type`, { id: loc.id });
        throw err;
      }
    });
  }

  async update(id: string, change: NoteChange | NoteEdit, expectedHash: string): Promise<Note> {
    await this.ready();
    const loc = this.target(id);
    if (typeof change !== 'function') assertStorableText({ title: change.title, content: change.content });
    return this.lock(loc, async () => this.indexed(await this.swap(loc, change, expectedHash)));
  }

  /**
   * All locks first (sorted), then every item at once, so their writes share folder fsyncs and
   * one index transaction. Items naming the same note run in input order, as separate calls would.
   */
  async updateMany(items: readonly NoteUpdate[]): Promise<Array<PromiseSettledResult<Note>>> {
    await this.ready();
    const results: Array<PromiseSettledResult<Note>> = new Array(items.length);
    const byNote = new Map<string, Array<{ index: number; loc: NoteTarget; item: NoteUpdate }>>();
    items.forEach((item, index) => {
      try {
        const loc = this.target(item.id);
        if (typeof item.change !== 'function') assertStorableText({ title: item.change.title, content: item.change.content });
        const queue = byNote.get(loc.absolute) ?? [];
        queue.push({ index, loc, item });
        byNote.set(loc.absolute, queue);
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    });
    await this.locks.runAll([...byNote.keys()], async () => {
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
              written.push({ index, file: await this.swap(loc, item.change, item.expectedHash, { beforeSync: passed.sync.pass, beforeRename: passed.rename.pass }) });
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
          results[index] = await settle(this.indexed(file));
        }),
      );
    });
    return results;
  }

  /** The compare-and-swap on the file; the caller holds the note's lock and indexes the result. */
  private async swap(loc: NoteTarget, edit: NoteChange | NoteEdit, expectedHash: string, phases: Pick<AtomicWriteOptions, 'beforeSync' | 'beforeRename'> = {}): Promise<WrittenFile> {
    const { bytes, text, hash, stats } = await this.readRaw(loc);
    if (hash !== expectedHash) throw new ContentHashMismatchError(hash, expectedHash, { identifier: loc.id });
    const parsed = this.parsedText(loc, text, hash, stats);
    const change = typeof edit === 'function' ? await edit(this.noteRead(loc, bytes, stats, hash)) : edit;
    if (typeof edit === 'function') assertStorableText({ title: change.title, content: change.content });
    const content = change.content ?? parsed.body;
    let next: string;
    if (parsed.warnings.length && change.metadata === undefined && change.title === undefined) {
      // Unreadable frontmatter is kept byte for byte when only the body changes.
      next = text.slice(0, text.length - parsed.body.length) + content;
    } else {
      const base = change.metadata ? customKeys(change.metadata) : customKeys(parsed.metadata);
      const metadata: Metadata = { ...pick(parsed.metadata, STORE_KEYS), ...base, updated: change.updated ?? new Date().toISOString() };
      if (change.title !== undefined) metadata.title = change.title;
      if (change.tags !== undefined) metadata.tags = change.tags;
      next = serializeMarkdown(metadata, content);
    }
    return this.writeFile(loc, next, phases);
  }

  async delete(id: string, expectedHash?: string): Promise<Note> {
    await this.ready();
    const loc = this.target(id);
    return this.lock(loc, async () => {
      const note = await this.readAt(loc);
      if (!note) throw new NotFoundError(`Note not found: ${loc.id}`, { identifier: loc.id });
      if (expectedHash !== undefined && note.contentHash !== expectedHash) {
        throw new ContentHashMismatchError(note.contentHash, expectedHash, { identifier: loc.id });
      }
      await this.onDisk(loc.relPath, () => fs.rm(loc.absolute));
      this.unindex(loc.id);
      this.parsed.delete(loc.id);
      return note;
    });
  }

  async move(id: string, newType: string, expectedHash: string): Promise<Note> {
    await this.ready();
    const from = this.target(id);
    const type = assertTypeName(this.layout, newType);
    const to = this.target(`${type}/${path.posix.basename(from.relPath)}`);
    if (to.id === from.id) throw new ValidationError(`Note ${from.id} is already of type "${type}".`, { field: 'new_type' });
    return this.lock(from, async () => {
      const { text, hash, stats } = await this.readRaw(from);
      if (hash !== expectedHash) throw new ContentHashMismatchError(hash, expectedHash, { identifier: from.id });
      const parsed = this.parsedText(from, text, hash, stats);
      const metadata: Metadata = { ...parsed.metadata, type, updated: new Date().toISOString() };
      const made = await this.onDisk(to.relPath, () => this.ensureFolder(path.dirname(to.absolute)));
      let note: Note;
      try {
        note = await this.write(to, serializeMarkdown(metadata, parsed.body), { exclusive: true });
      } catch (err) {
        await this.unmake(made, path.dirname(to.absolute));
        if (err instanceof ConflictError) throw new ConflictError(`A note with the filename '${path.basename(to.absolute)}' already exists in the '${type}' note type`, { id: to.id });
        throw err;
      }
      await this.onDisk(from.relPath, () => fs.rm(from.absolute));
      this.unindex(from.id);
      this.parsed.delete(from.id);
      return note;
    });
  }

  watch(listener: (change: ExternalChange) => void): () => void {
    this.following = true;
    const stop = watchNoteFiles(this.root, this.layout, this.logger, async (relPaths) => {
      for (const rel of relPaths) {
        const change = await this.syncPath(rel);
        if (change) listener(change);
      }
    });
    this.stopWatchers.add(stop);
    return () => {
      // close() waits for a stop already under way, so no batch touches a closed index.
      if (this.stopWatchers.delete(stop)) this.stopping.push(stop());
    };
  }

  /** Re-reads one path another program touched; reports it only if the index saw a difference. */
  private async syncPath(rel: string): Promise<ExternalChange | undefined> {
    await this.ready();
    let loc: NoteTarget;
    try {
      loc = this.target(rel);
    } catch {
      return undefined; // not a note path (a type file, a nested folder in the typed layout)
    }
    // Under the write lock: a write of ours in flight finishes (and indexes itself) first.
    return this.lock(loc, async () => {
      if (this.closed) return undefined;
      const before = this.db.summary(loc.id);
      let note: Note | undefined;
      try {
        note = await this.readAt(loc);
      } catch (err) {
        this.logger.warn({ err, path: rel }, 'a changed note file cannot be read; leaving it out of the index');
      }
      if (note) return before?.contentHash === note.contentHash ? undefined : { kind: 'written', note, ...(before ? { previous: before } : {}) };
      if (!before) return undefined;
      this.db.remove(loc.id);
      this.parsed.delete(loc.id);
      return { kind: 'deleted', id: loc.id, previous: before };
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const healed = this.healing.close();
    await this.freshness.close();
    await healed;
    await Promise.all([...[...this.stopWatchers].map((stop) => stop()), ...this.stopping]);
    this.stopWatchers.clear();
    await this.indexWrites.flush();
    this.lagging.close();
    this.locks.close();
    this.retired.close();
    this.db.close();
  }

  /** Where an id lives, resolved (and checked against the vault) once per operation. */
  private target(id: string): NoteTarget {
    const loc = locate(this.layout, id);
    return { ...loc, absolute: resolveInside(this.root, loc.relPath) };
  }

  /** Keyed by absolute path, the same key `files` uses, so the two write paths exclude each other. */
  private lock<T>(loc: NoteTarget, fn: () => Promise<T>): Promise<T> {
    return this.locks.run(loc.absolute, fn);
  }

  /** Type folders are created once per process, not checked on every write. */
  private async ensureFolder(dir: string): Promise<string | undefined> {
    if (this.folders.has(dir)) return undefined;
    const made = await fs.mkdir(dir, { recursive: true });
    this.folders.add(dir);
    return made;
  }

  /** The folder a failed write made goes again (while empty): a refused write leaves no new type behind. */
  private async unmake(made: string | undefined, dir: string): Promise<void> {
    if (made === undefined) return;
    this.folders.delete(dir);
    await fs.rmdir(made).catch(() => undefined);
  }

  /** Writes and indexes: what every single-note write does. */
  private async write(loc: NoteTarget, text: string, options: { exclusive?: boolean } = {}): Promise<Note> {
    return this.indexed(await this.writeFile(loc, text, options));
  }

  /** Indexed together with the writes finishing alongside it, in one transaction. */
  private async indexed(file: WrittenFile): Promise<Note> {
    try {
      await this.indexWrites.add(toIndexed(file.note, file.mtimeMs));
    } catch (err) {
      // The file is written, which is what the caller asked for, so the write is reported done:
      // a damaged index is rebuilt from the files, a row the index cannot take now waits.
      this.rowFailed(file.note.id, err);
    }
    this.parsed.set(file.note.id, file.cacheKey, file.note);
    return file.note;
  }

  /** Drops an index row after its file is gone (the file is gone whatever the index does). */
  private unindex(id: string): void {
    try {
      this.db.remove(id);
    } catch (err) {
      this.rowFailed(id, err);
    }
  }

  /** A row the index did not take: damage is checked and rebuilt; anything else waits in `lagging`. */
  private rowFailed(id: string, err: unknown): void {
    if (isCorruptionError(err)) {
      this.logger.warn({ path: id }, 'note written; its index row waits for the index rebuild');
      this.healing.suspect(err);
    } else {
      this.lagging.add(id, err);
    }
  }

  /** Brings one row level with its file, or drops it; throws while the index cannot be written. */
  private async repairRow(id: string): Promise<void> {
    await this.ready();
    const loc = this.target(id);
    await this.lock(loc, async () => {
      const read = await this.readFileAt(loc);
      if (read) this.db.upsert(toIndexed(this.toNote(loc, read.bytes, read.stats), read.stats.mtimeMs));
      else this.db.remove(id);
    });
  }

  /** File-system work on one note: its failure named as the catalogue has it (no_space, permission_denied, read_only), with the note's path. */
  private async onDisk<T>(relPath: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw systemFault(err, relPath) ?? err;
    }
  }

  /** The one place a written note becomes a Note: atomically written, parsed from the very bytes on disk (no re-read). */
  private async writeFile(loc: NoteTarget, text: string, options: Pick<AtomicWriteOptions, 'exclusive' | 'beforeSync' | 'beforeRename'> = {}): Promise<WrittenFile> {
    const bytes = Buffer.from(text, 'utf8');
    const write = () =>
      writeFileAtomic(loc.absolute, bytes, { ...options, syncDirectory: (dir) => this.directories.sync(dir), retireOld: (file) => this.retired.add(file) });
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

  private toNote(loc: NoteTarget, bytes: Buffer, stats: Stats, hash = contentHash(bytes)): Note {
    const decoded = decodeNoteBytes(bytes);
    if (!decoded.ok) throw new ValidationError(`Note ${loc.id} cannot be read: ${decoded.reason}.`, { identifier: loc.id });
    return readNoteFile({ id: loc.id, type: loc.type, absolutePath: loc.absolute, bytes, text: decoded.text, stats, contentHash: hash });
  }

  private async readAt(loc: NoteTarget): Promise<Note | undefined> {
    if (!isLayoutNoteFile(this.layout, path.posix.basename(loc.relPath))) return undefined;
    const read = await this.readFileAt(loc);
    if (!read) return undefined;
    const { bytes, stats } = read;
    const hash = contentHash(bytes);
    const key = ParsedNotes.key(hash, stats);
    const cached = this.parsed.get(loc.id, key, () => decodedText(bytes));
    if (cached) return cached;
    const note = this.toNote(loc, bytes, stats, hash);
    // A stale row is healed here, unless a refresh is under way: it will index this file itself,
    // and a row it did not see in its scan would look like a deleted note's.
    if (!this.freshness.busy) {
      try {
        const state = this.db.fileState(loc.id);
        if (!state || state.contentHash !== note.contentHash || state.mtimeMs !== stats.mtimeMs) this.db.upsert(toIndexed(note, stats.mtimeMs));
      } catch (err) {
        // The note is read from its file: an index that cannot take the row must not fail the read.
        this.rowFailed(loc.id, err);
      }
    }
    this.parsed.set(loc.id, key, note);
    return note;
  }

  /** The note these bytes hold: the parsed-note cache's copy when these exact bytes were read before. */
  private noteRead(loc: NoteTarget, bytes: Buffer, stats: Stats, hash: string): Note {
    const key = ParsedNotes.key(hash, stats);
    const cached = this.parsed.get(loc.id, key, () => decodedText(bytes));
    if (cached) return cached;
    const note = this.toNote(loc, bytes, stats, hash);
    this.parsed.set(loc.id, key, note);
    return note;
  }

  private async readRaw(loc: NoteTarget): Promise<{ bytes: Buffer; text: string; hash: string; stats: Stats }> {
    const read = await this.readFileAt(loc);
    if (!read) throw new NotFoundError(`Note not found: ${loc.id}`, { identifier: loc.id });
    const bytes = read.bytes;
    const decoded = decodeNoteBytes(bytes);
    if (!decoded.ok) throw new ValidationError(`Note ${loc.id} cannot be read: ${decoded.reason}.`, { identifier: loc.id });
    return { bytes, text: decoded.text, hash: contentHash(bytes), stats: read.stats };
  }

  /** A note file's bytes; a FIFO, socket, device or hard-linked file is no note: skipped with a warning. */
  private async readFileAt(loc: NoteTarget): Promise<FileRead | undefined> {
    const read = await readSmallFile(loc.absolute, { readHardLinks: this.layout.readHardLinks === true });
    if (!isSkipped(read)) return read;
    this.logger.warn({ path: loc.relPath, reason: read.skipped }, 'note file skipped');
    return undefined;
  }

  /** The frontmatter and body of text just read: from the parsed-note cache when these exact bytes were parsed before. */
  private parsedText(loc: NoteTarget, text: string, hash: string, stats: Stats): Pick<ParsedMarkdown, 'metadata' | 'body' | 'warnings'> {
    const cached = this.parsed.get(loc.id, ParsedNotes.key(hash, stats), () => text);
    return cached ? { metadata: cached.metadata, body: cached.content, warnings: cached.warnings ?? [] } : parseMarkdown(text);
  }
}

function decodedText(bytes: Buffer): string | undefined {
  const decoded = decodeNoteBytes(bytes);
  return decoded.ok ? decoded.text : undefined;
}

/** A NUL byte makes a file binary: it could be written but never read back as a note. */
function assertStorableText(fields: Record<string, string | undefined>): void {
  for (const [field, value] of Object.entries(fields)) {
    if (value?.includes('\0')) throw new ValidationError(`${field} contains a NUL byte, which a note file cannot hold.`, { field });
  }
}

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
