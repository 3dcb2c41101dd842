import path from 'node:path';
import type {
  ExternalChange,
  IndexPassObserver,
  NoteStore,
  NoteUpdate,
  RefreshReport,
  VaultFiles,
} from '../../kernel/backend.js';
import type { JournalStorage } from '../../kernel/journal.js';
import { DEFAULT_JOURNAL_WINDOW, FileJournal, type JournalWindow } from '../../toolkit/files/file-journal.js';
import type { FaultReporter } from '../../kernel/faults.js';
import { LaggingRows } from './lagging-rows.js';
import type { Logger } from '../../kernel/logger.js';
import type { ListQuery, Note, NoteChange, NoteEdit, NewNote, NoteSummary } from '../../kernel/note.js';
import { KnownNotes } from './known-notes.js';
import type { ProgressReporter } from '../../kernel/progress.js';
import { GroupCommit } from '../../toolkit/files/group-commit.js';
import { ParsedNotes } from './parsed-notes.js';
import { NoteWrites } from './note-writes.js';
import { NoteFiles, decodedText, type NoteTarget, type WrittenFile } from './note-files.js';
import { contentHash } from '../../toolkit/hash.js';
import { WriteLocks } from '../../toolkit/files/write-locks.js';
import { normaliseRelative } from '../../toolkit/files/paths.js';
import { createVaultFiles } from '../../toolkit/files/vault-files.js';
import type { IndexDb, IndexedNote } from './index-db.js';
import { isLayoutNoteFile, LAYOUT_HINT, typeOfFolder, type Layout } from './layout.js';
import { toIndexed } from './note-file.js';
import { refreshIndex } from './refresh.js';
import { IndexFreshness, RefreshStopped } from './index-freshness.js';
import { watchNoteFiles } from '../../toolkit/files/folder-watch.js';
import { createIndexDatabase, type PluginTables } from './plugin-tables.js';
import { IndexHealing } from './index-healing.js';
import { isCorruptionError } from './index-recovery.js';
import type { IndexDatabase } from '../../kernel/index-database.js';
import { describeSkipped } from '../../toolkit/files/skip-summary.js';

/**
 * How long after the open the first refresh starts unless a call needs the index sooner: long
 * enough for a client's handshake and first calls, short against a person's next request.
 */
const BACKGROUND_REFRESH_DELAY_MS = 200;
/** A failed refresh is tried again by a call that needs the rows, at most this often. */
const REFRESH_RETRY_MS = 1_000;

export class FsSqliteStore implements NoteStore {
  readonly files: VaultFiles;
  readonly indexDb: IndexDatabase;
  readonly journal: JournalStorage;
  private readonly tables: PluginTables;
  private readonly healing: IndexHealing;
  /** What follows the opening refresh (search upkeep); a rebuild runs it again. */
  private afterwards: () => void = () => {};
  private readonly locks: WriteLocks;
  private readonly disk: NoteFiles;
  private readonly writes: NoteWrites;
  /** Writes finishing together share one transaction (and one FTS5 segment instead of one each). */
  private readonly indexWrites: GroupCommit<IndexedNote>;
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
  /** What this process knew of each note while it watches (known-notes.ts). */
  private readonly known = new KnownNotes();
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
    this.locks = new WriteLocks(root, path.join(root, layout.metaDir, 'locks'));
    this.disk = new NoteFiles(root, layout, logger);
    this.writes = new NoteWrites({
      layout,
      disk: this.disk,
      locks: this.locks,
      ready: () => this.ready(),
      indexed: (file) => this.indexed(file),
      unindex: (id) => this.unindex(id),
      readAt: (loc) => this.readAt(loc),
    });
    this.lagging = new LaggingRows((id) => this.repairRow(id), faults);
    this.files = createVaultFiles(root, this.locks);
    this.journal = new FileJournal(path.join(root, layout.metaDir, 'journal'), window);
    this.tables = createIndexDatabase(db.db, () => db.afterWrite(), path.dirname(db.file));
    this.indexDb = this.tables;
    this.healing = new IndexHealing(db, this.tables, this.freshness, this.refreshWith(undefined), logger, () =>
      this.afterwards(),
    );
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
        this.logger.info(
          { scanned: report.scanned, indexed: report.indexed, removed: report.removed, ms: report.ms },
          'index ready',
        );
        // Once per open, summarised: `notekernel index` lists them grouped, with examples.
        if (report.skipped.length)
          this.logger.warn(
            { skippedFiles: report.skipped.length, ...(this.layout.kind === 'typed' ? { hint: LAYOUT_HINT } : {}) },
            describeSkipped(report.skipped),
          );
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
    return {
      lagging: `The index is catching up with ${this.behind} note file${this.behind === 1 ? '' : 's'} changed since it was last updated; these results may not reflect them yet.`,
    };
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
    return (
      typeOfFolder(this.layout, slash < 0 ? '' : rel.slice(0, slash)) !== null &&
      isLayoutNoteFile(this.layout, rel.slice(slash + 1))
    );
  }

  async get(id: string): Promise<Note | undefined> {
    return this.readAt(this.disk.target(id));
  }

  async list(query?: ListQuery): Promise<NoteSummary[]> {
    await this.ready();
    if (query?.type !== undefined) await this.disk.assertReadableType(query.type);
    return this.db.list(query);
  }

  async count(query?: Pick<ListQuery, 'type'>): Promise<number> {
    await this.ready();
    return this.db.count(query?.type);
  }

  async listTypes(): Promise<string[]> {
    await this.ready();
    const types = new Set([...this.db.typeCounts().keys(), ...(await this.disk.typeFolders())]);
    return [...types].sort((a, b) => a.localeCompare(b));
  }

  create(input: NewNote): Promise<Note> {
    return this.writes.create(input);
  }

  update(id: string, change: NoteChange | NoteEdit, expectedHash: string): Promise<Note> {
    return this.writes.update(id, change, expectedHash);
  }

  updateMany(items: readonly NoteUpdate[]): Promise<Array<PromiseSettledResult<Note>>> {
    return this.writes.updateMany(items);
  }

  delete(id: string, expectedHash?: string): Promise<Note> {
    return this.writes.delete(id, expectedHash);
  }

  move(id: string, newType: string, expectedHash: string): Promise<Note> {
    return this.writes.move(id, newType, expectedHash);
  }

  watch(listener: (change: ExternalChange) => void): () => void {
    this.following = true;
    this.known.follow(this.ready(), () => this.db.fileStates());
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

  /** Re-reads one path another program touched; reports it when it differs from what this process knew. */
  private async syncPath(rel: string): Promise<ExternalChange | undefined> {
    await this.ready();
    this.known.seed(() => this.db.fileStates());
    let loc: NoteTarget;
    try {
      loc = this.disk.target(rel);
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
      if (!note && before) this.db.remove(loc.id);
      if (!note) this.disk.parsed.delete(loc.id);
      return this.known.heard(loc.id, note, before);
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
    this.disk.close();
    this.db.close();
  }

  /** Keyed by absolute path, the same key `files` uses, so the two write paths exclude each other. */
  private lock<T>(loc: NoteTarget, fn: () => Promise<T>): Promise<T> {
    return this.locks.run(loc.absolute, fn);
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
    this.disk.parsed.set(file.note.id, file.cacheKey, file.note);
    this.known.wrote(file.note.id, file.note.contentHash);
    return file.note;
  }

  /** Drops an index row after its file is gone (the file is gone whatever the index does). */
  private unindex(id: string): void {
    this.known.wrote(id, undefined);
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
    const loc = this.disk.target(id);
    await this.lock(loc, async () => {
      const read = await this.disk.readFileAt(loc);
      if (read) this.db.upsert(toIndexed(this.disk.toNote(loc, read.bytes, read.stats), read.stats.mtimeMs));
      else this.db.remove(id);
    });
  }

  private async readAt(loc: NoteTarget): Promise<Note | undefined> {
    if (!isLayoutNoteFile(this.layout, path.posix.basename(loc.relPath))) return undefined;
    const read = await this.disk.readFileAt(loc);
    if (!read) return undefined;
    const { bytes, stats } = read;
    const hash = contentHash(bytes);
    const key = ParsedNotes.key(hash, stats);
    const cached = this.disk.parsed.get(loc.id, key, () => decodedText(bytes));
    if (cached) return cached;
    const note = this.disk.toNote(loc, bytes, stats, hash);
    // A stale row is healed here, unless a refresh is under way: it will index this file itself,
    // and a row it did not see in its scan would look like a deleted note's.
    if (!this.freshness.busy) {
      try {
        const state = this.db.fileState(loc.id);
        if (!state || state.contentHash !== note.contentHash || state.mtimeMs !== stats.mtimeMs)
          this.db.upsert(toIndexed(note, stats.mtimeMs));
      } catch (err) {
        // The note is read from its file: an index that cannot take the row must not fail the read.
        this.rowFailed(loc.id, err);
      }
    }
    this.disk.parsed.set(loc.id, key, note);
    return note;
  }
}
