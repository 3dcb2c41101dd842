/**
 * The links plugin at run time: the index (tables + names), the hooks that keep it in step,
 * and the LINKS / LINK_INDEX services. Index changes run one at a time through a queue, so a
 * hook never interleaves with a reconcile; rewrites run outside the queue (their own writes
 * come back through the hooks, which must not wait on them).
 */
import type { IndexPassObserver, NoteStore } from '../../kernel/backend.js';
import { NotFoundError } from '../../kernel/errors.js';
import type { HookHandlers, WriteSource } from '../../kernel/hooks.js';
import type { Logger } from '../../kernel/logger.js';
import type { Note } from '../../kernel/note.js';
import type { NoteService } from '../../kernel/notes.js';
import { GroupCommit } from '../../toolkit/files/group-commit.js';
import { callProgress, type ProgressReporter } from '../../kernel/progress.js';
import { KeyedMutex } from '../../toolkit/mutex.js';
import { neighbourhood, orphans, type GraphOptions } from './graph.js';
import { LinkIndexer } from './indexer.js';
import { applyWrite } from './external-write.js';
import { linksIndexPass } from './index-pass.js';
import { NameIndex, nameKey } from './names.js';
import { parseInner } from '../../toolkit/markdown/index.js';
import { answersBeforeReconcile, reconcile, storedNames, type ReconcileReport } from './reconcile.js';
import { toLinkRef } from './render.js';
import { planRewrites, rewriteNotes, type RewriteDeps } from './rewrite.js';
import { renameRule, repairRule, staleSources } from './rules.js';
import type {
  LinkGraph,
  LinkIndexService,
  LinkRef,
  LinkRepairReport,
  LinkRewriteReport,
  RenamePlan,
} from './service.js';
import type { LinkStore } from './store/types.js';
import { VanishedNotes } from './vanished.js';

/** How long a freshly opened vault stays quiet before the links catch up on their own. */
const START_DELAY_MS = 300;

export interface LinksRuntimeDeps {
  links: LinkStore;
  store: NoteStore;
  notes: NoteService;
  logger: Logger;
  readOnly: boolean;
  autoRepair: boolean;
}

export class LinksRuntime implements LinkIndexService {
  readonly names = new NameIndex();
  readonly indexer: LinkIndexer;
  readonly links: LinkStore;
  private readonly mutex = new KeyedMutex();
  private pending: Promise<void> = Promise.resolve();
  private initial: Promise<void> = Promise.resolve();
  /** The link index may answer queries before the start-up reconcile ends (decision 026). */
  private early = false;
  /**
   * The names those early answers resolve against, read from the link index on first need (a
   * lookup by id needs none): apart from `names`, which the index pass and the reconcile rebuild
   * meanwhile, so early answers see one whole earlier state.
   */
  private earlyNames: NameIndex | undefined;
  private reconciled = false;
  private onStarted: ((report: ReconcileReport) => void) | undefined;
  private startTimer: NodeJS.Timeout | undefined;
  private closing = false;
  /** Notes an external delete just removed, by content hash, in case they reappear (an mv). */
  private readonly vanished = new VanishedNotes();
  private readonly rewriteDeps: RewriteDeps;
  /** Our own writes (a batch create, a rename's rewrites) are indexed together, in one transaction. */
  private readonly toolWrites = new GroupCommit<Note>(
    (notes) => this.applyToolWrites(notes),
    (flush) => this.run(flush),
  );

  constructor(private readonly deps: LinksRuntimeDeps) {
    this.links = deps.links;
    this.indexer = new LinkIndexer(deps.links, this.names);
    this.rewriteDeps = { notes: deps.notes };
  }

  /** Runs index work one piece at a time. */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    // Work before the start-up reconcile queues behind it: the names must be known first.
    void this.ready();
    return this.mutex.run('links', async () => fn());
  }

  /**
   * Schedules the start-up reconcile without waiting for it. It begins when the vault has been
   * quiet for a moment, or at once when anything needs the link index (`ready()`, a write):
   * its listing of every note is synchronous SQLite work that would otherwise delay the first
   * answer of a freshly started server. A one-shot CLI call that never needs links never pays.
   */
  start(onDone: (report: ReconcileReport) => void): void {
    this.onStarted = onDone;
    this.startTimer = setTimeout(() => void this.ready(), START_DELAY_MS);
    this.startTimer.unref();
  }

  /** Resolves once the start-up reconcile is done (starting it if it has not begun). */
  ready(): Promise<void> {
    if (this.onStarted) {
      const onDone = this.onStarted;
      this.onStarted = undefined;
      clearTimeout(this.startTimer);
      this.early = this.answersEarly();
      this.initial = this.reconcile()
        .then(onDone, (err: unknown) => this.deps.logger.error({ err }, 'links: start-up reconcile failed'))
        .finally(() => {
          this.reconciled = true;
          this.earlyNames = undefined;
        });
    }
    return this.initial;
  }

  /**
   * Link queries answer from the link index as it stands while the store's refresh and the
   * start-up reconcile catch up, when it is a whole earlier state and the store serves its own
   * rows meanwhile (NoteStore.whenReadable, decision 026); otherwise after the reconcile.
   * Writes and renames still wait for the reconcile (`ready()`).
   */
  private async answerable(): Promise<void> {
    const initial = this.ready();
    if (this.early && !this.reconciled && this.deps.store.whenReadable) await this.deps.store.whenReadable();
    else await initial;
  }

  /**
   * Whether the link index may answer before the reconcile: it holds notes and no reconcile was
   * cut short while filling it. A shortcut only: when the index cannot be read (damaged: the
   * store's connection has reported it and a rebuild follows), link queries wait for the reconcile.
   */
  private answersEarly(): boolean {
    try {
      return (
        this.deps.store.whenReadable !== undefined &&
        answersBeforeReconcile(this.links) &&
        this.links.counts().notes > 0
      );
    } catch (err) {
      this.deps.logger.warn(
        { err },
        'links: the link index cannot be read; link queries wait for the start-up reconcile',
      );
      return false;
    }
  }

  /** The names an answer resolves against: the link index's own note states until the reconcile is done. */
  private answerNames(): NameIndex {
    if (!this.early || this.reconciled) return this.names;
    if (!this.earlyNames) {
      this.earlyNames = new NameIndex();
      this.earlyNames.rebuildFromNames(() => storedNames(this.links), this.links.formers());
    }
    return this.earlyNames;
  }

  /** Catches up with the store; `scheduleRepair` is off when a repair is the caller. */
  async reconcile(scheduleRepair = true): Promise<ReconcileReport> {
    const report = await this.run(() => reconcile(this.indexer, this.deps.store, this.deps.logger, () => this.closing));
    if (scheduleRepair && (report.moved.length || report.retitled.length)) this.scheduleRepair();
    return report;
  }

  hooks(): HookHandlers {
    return {
      'note.afterWrite': ({ note, source }) =>
        source === 'external' ? this.run(() => this.onWrite(note, source)) : this.toolWrites.add(note),
      'note.afterDelete': ({ note, source }) =>
        this.run(() => {
          if (source === 'external') this.vanished.remember(this.links.state(note.id));
          this.links.transaction(() => void this.indexer.reresolve(this.indexer.drop(note.id)));
        }),
      'note.afterMove': ({ note, fromId }) =>
        this.run(() => this.links.transaction(() => void this.indexer.reresolve(this.indexer.move(fromId, note)))),
    };
  }

  /** Feeds the link index from the backend's own index pass (index-pass.ts). */
  indexPassObserver(): IndexPassObserver {
    return linksIndexPass(this.indexer, this.deps.logger, () => this.scheduleRepair());
  }

  /** Resolves a tool's identifier (id, id without `.md`, title or filename) to a note id. */
  async noteId(identifier: string): Promise<string> {
    await this.answerable();
    // An exact id needs no name index (reading 10,000 names cost more than the whole answer).
    if (this.early && !this.reconciled && this.links.state(identifier)) return identifier;
    const known = this.answerNames().lookup(identifier);
    if (known) return known;
    try {
      const note = await this.deps.store.get(identifier);
      if (note) return note.id;
    } catch {
      // not an identifier the store understands either
    }
    throw new NotFoundError(`Note not found: ${identifier}`, { identifier });
  }

  async planRename(noteId: string, oldTitle: string, newTitle: string): Promise<RenamePlan> {
    await this.ready();
    const oldKey = nameKey(oldTitle);
    const sources = this.links
      .incoming(noteId)
      .filter((l) => l.target_key === oldKey || l.target_key.startsWith('id:'));
    const { planned, not_rewritten } = await planRewrites(
      sources.map((l) => l.source_note_id),
      renameRule(this.names, noteId, oldTitle, newTitle),
      this.rewriteDeps,
    );
    return { rewrites: planned, not_rewritten };
  }

  async rewriteAfterRename(noteId: string, oldTitle: string, newTitle: string): Promise<LinkRewriteReport> {
    await this.ready();
    // The index must know the new title (and keep the old one as a former name) first.
    const note = await this.deps.notes.get(noteId);
    if (note) await this.reindex(note);
    const oldKey = nameKey(oldTitle);
    const sources = this.links
      .incoming(noteId)
      .filter((l) => l.target_key === oldKey || l.target_key.startsWith('id:'));
    const outcome = await rewriteNotes(
      sources.map((l) => l.source_note_id),
      renameRule(this.names, noteId, oldTitle, newTitle),
      this.rewriteDeps,
      false,
      callProgress(),
    );
    return {
      links_updated: outcome.links_updated,
      notes_updated: outcome.notes_updated,
      not_rewritten: outcome.not_rewritten,
    };
  }

  async repair(options: { dryRun: boolean; noteId?: string; progress?: ProgressReporter }): Promise<LinkRepairReport> {
    await this.reconcile(false);
    const target = options.noteId;
    const sources = staleSources(this.names, (keys) => this.links.byKeys(keys), target);
    const outcome = await rewriteNotes(
      sources,
      repairRule(this.names, target),
      this.rewriteDeps,
      options.dryRun,
      options.progress,
      'links_repair',
    );
    const moves = this.links.moves({ pending: true }).filter((m) => target === undefined || m.to_id === target);
    if (!options.dryRun && outcome.not_rewritten.length === 0) {
      this.links.markRepaired(moves.map((m) => m.id));
      // Every link using an old name now uses the current one: the old names may go, so a
      // later [[Old Name]] is the broken link its author expects.
      await this.run(() => this.links.transaction(() => this.indexer.reresolve(this.indexer.forgetFormers(target))));
    }
    return { dry_run: options.dryRun, moves: moves.map(({ id: _id, ...m }) => m), ...outcome };
  }

  async incoming(noteId: string): Promise<LinkRef[]> {
    await this.answerable();
    return this.links.incoming(noteId).map(toLinkRef);
  }

  async brokenFrom(noteId: string): Promise<LinkRef[]> {
    await this.answerable();
    return this.links
      .outgoing(noteId)
      .filter((l) => l.target_note_id === null)
      .map(toLinkRef);
  }

  async outgoing(noteId: string): Promise<LinkRef[]> {
    await this.answerable();
    return this.links.outgoing(noteId).map(toLinkRef);
  }

  async broken(): Promise<LinkRef[]> {
    await this.answerable();
    return this.links.broken().map(toLinkRef);
  }

  async orphans(): Promise<Array<{ id: string; title: string }>> {
    await this.answerable();
    return orphans(this.links, this.answerNames());
  }

  async graph(noteId: string, options?: GraphOptions): Promise<LinkGraph> {
    await this.answerable();
    return neighbourhood(this.links, this.answerNames(), noteId, options);
  }

  async resolve(target: string): Promise<string | null> {
    await this.answerable();
    const inner = parseInner(target.replace(/^!?\[\[|\]\]$/g, ''));
    if (!inner) return null;
    const names = this.answerNames();
    const key = names.keyFor(
      { ...inner, kind: 'wikilink', raw: target, destination: null, line: 1, column: 1, start: 0, end: 0 },
      '',
    );
    return names.resolveKey(key).target;
  }

  async titleOwners(title: string): Promise<string[]> {
    await this.ready();
    return this.names.titled(title);
  }

  /** Waits for the start-up reconcile and any scheduled automatic repair. */
  async settle(): Promise<void> {
    await this.ready();
    await this.pending;
  }

  /** The vault is closing: an unfinished start-up reconcile stops after its current batch. */
  async close(): Promise<void> {
    this.closing = true;
    // Never begun: nothing to stop, and nothing to begin now.
    clearTimeout(this.startTimer);
    this.onStarted = undefined;
    await this.initial;
    await this.pending;
  }

  /** Brings the index up to date with one note now, through the same path as our own writes. */
  private reindex(note: Note): Promise<void> {
    return this.toolWrites.add(note);
  }

  private applyToolWrites(notes: readonly Note[]): void {
    this.links.transaction(() => {
      const keys = new Set<string>();
      for (const note of notes) {
        for (const key of this.indexer.apply(note).keys) keys.add(key);
      }
      if (keys.size) this.indexer.reresolve(keys);
    });
  }

  /** External writes may be moves or renames done outside the server (external-write.ts). */
  private async onWrite(note: Note, source: WriteSource): Promise<void> {
    const { store, logger } = this.deps;
    const renamedOutside = await applyWrite(
      { links: this.links, indexer: this.indexer, vanished: this.vanished, store, logger },
      note,
      source,
    );
    if (renamedOutside) this.scheduleRepair();
  }

  private scheduleRepair(): void {
    if (!this.deps.autoRepair || this.deps.readOnly || this.closing) return;
    // After the current call returns (start-up finishes registering first), one repair at a time.
    this.pending = this.pending
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(async () => {
        const report = await this.repair({ dryRun: false });
        this.deps.logger.info(
          { links: report.links_updated, notes: report.notes_updated, not_rewritten: report.not_rewritten.length },
          'links repaired automatically',
        );
      })
      .catch((err: unknown) => this.deps.logger.error({ err }, 'automatic link repair failed'));
  }
}
