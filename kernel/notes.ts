/**
 * The one write path. Plugins and tools change notes through this service, never through the
 * store directly, so every write runs the beforeWrite hooks (validation, defaults), reaches
 * the store's compare-and-swap, keeps a separate search index in step, and notifies the
 * afterWrite/afterDelete listeners (links, tags, ...).
 */
import { callProgress } from './progress.js';
import { callCaller } from './caller.js';
import path from 'node:path';
import type { NoteStore, NoteUpdate, ExternalChange, VaultFiles } from './backend.js';
import { contentHash } from './util/hash.js';
import type { FileText, JournalEntry, JournalStep, ReplacedBy } from './journal.js';
import { newEntryId, stateOf } from './operations.js';
import { keepFileTexts } from './journal-bytes.js';
import { testCrashPoint } from './test-crash.js';
import { requireMember } from './backend.js';
import type { HookRunner, NoteDraft, WriteSource } from './hooks.js';
import type { Logger } from './logger.js';
import type { ListQuery, Note, NoteChange, NewNote, NoteSummary } from './note.js';
import { ConflictError, ContentHashMismatchError, NotFoundError, ValidationError, toNotekernelError } from './errors.js';
import type { IndexOutbox } from './index-outbox.js';
import { settle } from './util/settle.js';
import { describeStep, type PlannedNote, type PlanPreview } from './plan-preview.js';

export interface NoteServiceDeps {
  store: NoteStore;
  storageBackend: string;
  /** The queue to a search index separate from the store; undefined when the store indexes itself. */
  indexOutbox?: IndexOutbox;
  hooks: HookRunner;
  logger: Logger;
}

export class NoteService {
  constructor(private readonly deps: NoteServiceDeps) {}

  get store(): NoteStore {
    return this.deps.store;
  }

  async get(id: string): Promise<Note | undefined> {
    return this.deps.store.get(id);
  }

  async require(id: string): Promise<Note> {
    const note = await this.deps.store.get(id);
    if (!note) throw new NotFoundError(`Note not found: ${id}`, { identifier: id });
    return note;
  }

  list(query?: ListQuery): Promise<NoteSummary[]> {
    return this.deps.store.list(query);
  }

  async create(input: NewNote): Promise<Note> {
    const note = await this.deps.store.create(await this.drafted(input));
    await this.afterWrite(note, 'create', 'tool');
    return note;
  }

  /** `previous`: the note as the caller just read it, which saves reading it again (see updateMany). */
  async update(id: string, change: NoteChange, expectedHash: string, previous?: Note): Promise<Note> {
    const [result] = await this.updateMany([{ id, change, expectedHash, ...(previous ? { previous } : {}) }]);
    if (result?.status !== 'fulfilled') throw result?.reason;
    return result.value;
  }

  /**
   * Several updates (a rename's link rewrites): each is validated, swapped and announced on its
   * own and fails alone; the store may share locks, fsyncs and its index transaction among them.
   * `previous`, when the caller just read the note, saves reading it again (it is used only if
   * its hash is the expected one; the store's compare-and-swap checks the file regardless).
   */
  async updateMany(items: ReadonlyArray<NoteUpdate & { previous?: Note }>): Promise<Array<PromiseSettledResult<Note>>> {
    const prepared = await Promise.allSettled(items.map((item) => this.prepareUpdate(item)));
    const ready = prepared.flatMap((p, index) => (p.status === 'fulfilled' ? [{ index, ...p.value }] : []));
    const stored = await updateEach(this.deps.store, ready.map((r) => r.update));
    const announced = await Promise.all(
      ready.map((r, k) => {
        const outcome = stored[k] as PromiseSettledResult<Note>;
        return outcome.status === 'rejected' ? outcome : settle(this.announceUpdate(outcome.value, r.previous, r.titleChanged).then(() => outcome.value));
      }),
    );
    const byIndex = new Map(ready.map((r, k) => [r.index, announced[k] as PromiseSettledResult<Note>]));
    return prepared.map((p, index) => (p.status === 'rejected' ? p : (byIndex.get(index) as PromiseSettledResult<Note>)));
  }

  private async prepareUpdate(item: NoteUpdate & { previous?: Note }): Promise<{ update: NoteUpdate; previous: Note; titleChanged: boolean }> {
    const { id, change, expectedHash } = item;
    const previous = item.previous?.contentHash === expectedHash ? item.previous : await this.require(id);
    const merged = mergeMetadata(previous.metadata, change.metadata);
    const draft: NoteDraft = await this.deps.hooks.beforeWrite({
      op: 'update',
      id,
      title: change.title ?? previous.title,
      content: change.content ?? previous.content,
      ...(previous.type !== undefined ? { type: previous.type } : {}),
      metadata: merged,
      changedKeys: Object.keys(change.metadata ?? {}),
    });
    const storeChange: NoteChange = {
      ...(change.title !== undefined ? { title: draft.title } : {}),
      ...(change.content !== undefined ? { content: draft.content } : {}),
      metadata: draft.metadata,
      ...(change.tags !== undefined ? { tags: change.tags } : {}),
    };
    return { update: { id, change: storeChange, expectedHash }, previous, titleChanged: change.title !== undefined && change.title !== previous.title };
  }

  private async announceUpdate(note: Note, previous: Note, titleChanged: boolean): Promise<void> {
    await this.afterWrite(note, 'update', 'tool', previous);
    if (titleChanged) await this.deps.hooks.emit('note.afterRename', { note, oldTitle: previous.title, source: 'tool' });
  }

  async delete(id: string, expectedHash?: string): Promise<Note> {
    const note = await this.deps.store.delete(id, expectedHash);
    this.deps.indexOutbox?.remove(id);
    await this.deps.hooks.emit('note.afterDelete', { note, source: 'tool' });
    return note;
  }

  async move(id: string, newType: string, expectedHash: string): Promise<Note> {
    const move = requireMember(this.deps.store.move?.bind(this.deps.store), this.deps.storageBackend, 'types', 'move_note');
    const note = await move(id, newType, expectedHash);
    this.deps.indexOutbox?.remove(id);
    this.deps.indexOutbox?.upsert(note);
    await this.deps.hooks.emit('note.afterMove', { note, fromId: id, source: 'tool' });
    return note;
  }

  /**
   * Completes a move cut short between writing the note under its new id and removing the old
   * file (journal recovery): the old file goes, and the note under its new id is announced again —
   * at start-up the indexes may have seen both files, so the listeners hear a delete and a write
   * (which re-resolves links by title to the one left), not a move.
   */
  async finishMove(fromId: string, expectedHash: string, moved: Note): Promise<Note> {
    await this.delete(fromId, expectedHash);
    await this.afterWrite(moved, 'update', 'tool');
    return moved;
  }

  /**
   * A multi-note operation, journalled where the store keeps a journal (decision 025): every
   * step is prepared first (hooks run, notes read), the whole plan is written durably, then the
   * steps are applied — each its own compare-and-swap, failing alone — and the entry is closed.
   * A process killed in between leaves the entry open for `recoverJournal` at the next start.
   * Results come in input order.
   */
  async applyPlan(operation: string, items: readonly PlanItem[]): Promise<AppliedPlan> {
    const prepared = await Promise.allSettled(items.map((item) => this.prepareStep(item)));
    const ready = prepared.flatMap((p, index) => (p.status === 'fulfilled' ? [{ index, ...p.value }] : []));
    const { entryId, outcomes } = await this.runPlan(operation, ready);
    const byIndex = new Map(ready.map((r, k) => [r.index, outcomes[k] as PromiseSettledResult<Note>]));
    return {
      ...(entryId ? { entryId } : {}),
      results: prepared.map((p, index) => (p.status === 'rejected' ? p : (byIndex.get(index) as PromiseSettledResult<Note>))),
    };
  }

  /**
   * Steps recorded already (an undo puts notes back into states the journal kept): journalled
   * and applied as `applyPlan` applies its own, with no hooks run again. `undoes` names the
   * entry an undo undoes.
   */
  async applyRecorded(operation: string, steps: ReadonlyArray<Prepared>, undoes?: string): Promise<AppliedPlan> {
    const { entryId, outcomes } = await this.runPlan(operation, steps, undoes);
    return { ...(entryId ? { entryId } : {}), results: outcomes };
  }

  /** Plan durably, apply, close (decision 025). */
  private async runPlan(operation: string, ready: ReadonlyArray<Prepared>, undoes?: string): Promise<{ entryId?: string; outcomes: Array<PromiseSettledResult<Note>> }> {
    const journal = this.deps.store.journal;
    // Each changed note's exact bytes go in the journal too, so an undo can put them back as they were.
    const steps = journal && ready.length ? await keepFileTexts(ready.map((r) => r.step), this.deps.store.files) : ready.map((r) => r.step);
    const entry: JournalEntry = { id: newEntryId(), operation, by: callCaller(), ...(undoes ? { undoes } : {}), at: new Date().toISOString(), state: 'pending', steps, results: [] };
    if (journal && ready.length) await journal.begin(entry);
    testCrashPoint(0);
    const outcomes: Array<PromiseSettledResult<Note>> = new Array(ready.length);
    let applied = 0;
    // The calling tool starts the progress with its item count (callProgress, kernel/progress.ts).
    const progress = callProgress();
    const record = (k: number, outcome: PromiseSettledResult<Note>) => {
      outcomes[k] = outcome;
      progress.tick();
      testCrashPoint(++applied);
      const result = outcome.status === 'fulfilled' ? { id: outcome.value.id, hash: outcome.value.contentHash } : { error: toNotekernelError(outcome.reason).message };
      (entry.results as unknown[])[k] = result;
      if (journal) journal.progress(entry.id, k, result);
    };
    await this.applySteps(ready, record);
    testCrashPoint(Number.POSITIVE_INFINITY);
    if (journal && ready.length) await journal.finish({ ...entry, state: 'done' });
    return { ...(journal && ready.length ? { entryId: entry.id } : {}), outcomes };
  }

  /**
   * What `applyPlan` would do with the same items, writing nothing: every note it would change,
   * with a unified diff of its text, and the items it would refuse already (a stale hash, a
   * missing note, a hook's veto), each with its reason.
   */
  async previewPlan(operation: string, items: readonly PlanItem[]): Promise<PlanPreview> {
    const prepared = await Promise.allSettled(items.map((item) => this.prepareStep(item)));
    const notes: PlannedNote[] = [];
    const refused: PlanPreview['refused'] = [];
    prepared.forEach((p, index) => {
      if (p.status === 'rejected') refused.push({ index, code: toNotekernelError(p.reason).code, error: toNotekernelError(p.reason).message });
      else notes.push(describeStep(p.value.step, index));
    });
    return { dry_run: true, operation, notes, refused };
  }

  private async prepareStep(item: PlanItem): Promise<Prepared> {
    if (item.kind === 'update') {
      const prepared = await this.prepareUpdate(item);
      // A stale hash is refused before the plan: the plan's before state is the caller's.
      if (prepared.previous.contentHash !== item.expectedHash) throw new ContentHashMismatchError(prepared.previous.contentHash, item.expectedHash, { identifier: item.id });
      return { step: { kind: 'update', id: item.id, before: stateOf(prepared.previous), change: prepared.update.change }, previous: prepared.previous, titleChanged: prepared.titleChanged };
    }
    if (item.kind === 'text') {
      const before = await this.readText(item.path);
      if ((before?.hash ?? null) !== item.expectedHash) {
        if (item.expectedHash === null) throw new ConflictError(`${item.path} already exists; nothing was overwritten.`, { path: item.path });
        if (!before) throw new NotFoundError(`No note at ${item.path}.`, { path: item.path });
        throw new ContentHashMismatchError(before.hash, item.expectedHash, { identifier: item.path });
      }
      if (!item.file && item.text !== null && this.deps.store.readsNoteAt?.(item.path) === false) throw new ValidationError(`${item.path} is not where this vault keeps a note.`, { path: item.path });
      return { step: { kind: 'text', path: item.path, before: before ?? null, text: item.text, ...(item.file ? { file: true as const } : {}), ...(item.replacedBy ? { replacedBy: item.replacedBy } : {}) } };
    }
    if (item.kind === 'move') {
      const previous = await this.require(item.id);
      if (previous.contentHash !== item.expectedHash) throw new ContentHashMismatchError(previous.contentHash, item.expectedHash, { identifier: item.id });
      return { step: { kind: 'move', id: previous.id, before: stateOf(previous), type: item.type, to: item.to } };
    }
    if (item.kind === 'delete') {
      const previous = await this.require(item.id);
      if (item.expectedHash !== undefined && previous.contentHash !== item.expectedHash) throw new ContentHashMismatchError(previous.contentHash, item.expectedHash, { identifier: item.id });
      return { step: { kind: 'delete', id: previous.id, before: stateOf(previous) } };
    }
    return { step: { kind: 'create', input: await this.drafted(item.input) } };
  }

  /** A new note as the write hooks leave it (a schema's defaults, a normalised title). */
  private async drafted(input: NewNote): Promise<NewNote> {
    const draft = await this.deps.hooks.beforeWrite({
      op: 'create',
      title: input.title,
      content: input.content,
      ...(input.type !== undefined ? { type: input.type } : {}),
      metadata: { ...(input.metadata ?? {}) },
      changedKeys: Object.keys(input.metadata ?? {}),
    });
    return { ...input, title: draft.title, content: draft.content, metadata: draft.metadata };
  }

  /** Creates first (a plan may link to them), then updates in store batches, then moves, then deletes. */
  private async applySteps(ready: ReadonlyArray<Prepared>, record: (k: number, outcome: PromiseSettledResult<Note>) => void): Promise<void> {
    const indexed = ready.map((r, k) => ({ ...r, k }));
    const creates = indexed.filter((r) => r.step.kind === 'create');
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < creates.length; i = next++) {
        const { step, k } = creates[i] as (typeof creates)[number];
        const outcome = await settle(this.deps.store.create((step as Extract<JournalStep, { kind: 'create' }>).input));
        record(k, outcome.status === 'fulfilled' ? await settle(this.afterWrite(outcome.value, 'create', 'tool').then(() => outcome.value)) : outcome);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CREATE_CONCURRENCY, creates.length) }, worker));
    const updates = indexed.filter((r) => r.step.kind === 'update');
    for (let i = 0; i < updates.length; i += UPDATE_BATCH) {
      const batch = updates.slice(i, i + UPDATE_BATCH);
      const stored = await updateEach(this.deps.store, batch.map((r) => {
        const step = r.step as Extract<JournalStep, { kind: 'update' }>;
        return { id: step.id, change: step.change, expectedHash: step.before.hash };
      }));
      await Promise.all(batch.map(async (r, j) => {
        const outcome = stored[j] as PromiseSettledResult<Note>;
        record(r.k, outcome.status === 'rejected' ? outcome : await settle(this.announceUpdate(outcome.value, r.previous as Note, r.titleChanged === true).then(() => outcome.value)));
      }));
    }
    // Exact texts: new files first (a move's copy), then rewrites, then removals (a move's source).
    const texts = indexed.filter((x) => x.step.kind === 'text') as Array<(typeof indexed)[number] & { step: TextStep }>;
    const phase = (t: TextStep) => (t.before === null ? 0 : t.text === null ? 2 : 1);
    for (const r of texts.sort((a, b) => phase(a.step) - phase(b.step))) record(r.k, await settle(this.applyText(r.step)));
    for (const r of indexed.filter((x) => x.step.kind === 'move')) {
      const step = r.step as Extract<JournalStep, { kind: 'move' }>;
      const moved = this.move(step.id, step.type, step.before.hash);
      const { change } = step;
      record(r.k, await settle(change ? moved.then((note) => this.writeRecorded(note.id, change, note.contentHash)) : moved));
    }
    for (const r of indexed.filter((x) => x.step.kind === 'delete')) {
      const step = r.step as Extract<JournalStep, { kind: 'delete' }>;
      record(r.k, await settle(this.delete(step.id, step.before.hash)));
    }
  }

  /**
   * Writes exactly `change` (no hooks: it was prepared once already) and tells the listeners;
   * the journal's recovery and undo put notes into a recorded state through it.
   */
  async writeRecorded(id: string, change: NoteChange, expectedHash: string): Promise<Note> {
    const previous = await this.require(id);
    const note = await this.deps.store.update(id, change, expectedHash);
    await this.announceUpdate(note, previous, change.title !== undefined && change.title !== previous.title);
    return note;
  }

  /** A note file's exact text and hash, or undefined when there is no such file (a store with `files`). */
  async readText(relPath: string): Promise<FileText | undefined> {
    const text = await this.files('exact text').readText(relPath);
    return text === undefined ? undefined : { text, hash: contentHash(text) };
  }

  /**
   * Writes `text` at `relPath` as it is (an Obsidian vault's own bytes: frontmatter as the user
   * wrote it, no keys added) if the file is still at `expectedHash` (`null`: it must not exist
   * yet), atomically under the store's lock, then reads it back through the store (which
   * indexes it) and tells the listeners, as a tool's write. Undefined when the store keeps no
   * note at that path: the file is written, there is nothing to announce.
   */
  async writeText(relPath: string, text: string, expectedHash: string | null): Promise<Note | undefined> {
    const files = this.files('exact text');
    const previous = expectedHash === null ? undefined : await this.get(relPath);
    const folder = path.posix.dirname(relPath);
    if (folder !== '.') await files.mkdir(folder);
    try {
      await files.writeText(relPath, text, { expectedHash: expectedHash ?? '' });
    } catch (err) {
      if (expectedHash === null && err instanceof ContentHashMismatchError) throw new ConflictError(`${relPath} already exists; nothing was overwritten.`, { path: relPath });
      throw err;
    }
    const note = await this.get(relPath).catch(() => undefined);
    if (!note) return undefined;
    await this.applyExternal({ kind: 'written', note, ...(previous ? { previous } : {}) }, 'tool');
    return note;
  }

  /** One text step as planned: the file written, or removed. */
  async applyText(step: TextStep): Promise<Note> {
    if (step.file) return this.applyFileText(step);
    if (step.text === null) return this.delete(step.path, step.before?.hash);
    const note = await this.writeText(step.path, step.text, step.before?.hash ?? null);
    if (!note) throw new ValidationError(`${step.path} was written but is not where this vault keeps a note.`, { path: step.path });
    return note;
  }

  /**
   * A `file` text step: the vault file written or removed as planned, if it is still at its
   * planned before hash, through `files` alone. A note the store reads there is announced as
   * `writeText` does; a plain file (a v1 entry) is not a note: its answer carries the path as
   * id and the file's hash, which is what the journal records. The caller refreshes the store.
   */
  private async applyFileText(step: TextStep): Promise<Note> {
    const files = this.files('a file step');
    if (step.text !== null) return (await this.writeText(step.path, step.text, step.before?.hash ?? null)) ?? fileAnswer(step.path, step.text);
    const now = await this.readText(step.path);
    if (!now) throw new NotFoundError(`No file at ${step.path}.`, { path: step.path });
    if (step.before && now.hash !== step.before.hash) throw new ContentHashMismatchError(now.hash, step.before.hash, { identifier: step.path });
    if (step.replacedBy && (await this.readText(step.replacedBy.path))?.hash !== step.replacedBy.hash) {
      throw new ConflictError(`${step.path} was kept: ${step.replacedBy.path}, which replaces it, is not in place as planned.`, { path: step.path, replaced_by: step.replacedBy.path });
    }
    // Compared again under the file's write lock: a write landing since the check above is kept.
    await files.remove(step.path, step.before ? { expectedHash: step.before.hash } : {});
    return fileAnswer(step.path, '');
  }

  private files(what: string): VaultFiles {
    return requireMember(this.deps.store.files, this.deps.storageBackend, 'files', what);
  }

  /** Creates exactly `input` (prepared once already) and tells the listeners. */
  async createRecorded(input: NewNote): Promise<Note> {
    const note = await this.deps.store.create(input);
    await this.afterWrite(note, 'create', 'tool');
    return note;
  }

  /**
   * Feeds changes the store saw on disk (another program's edits) through the same hooks. A tool
   * that wrote a note's file as exact text itself (toolkit/files/note-text.ts) announces it here
   * with `source: 'tool'`.
   */
  async applyExternal(change: ExternalChange, source: WriteSource = 'external'): Promise<void> {
    if (change.kind === 'written') {
      await this.afterWrite(change.note, change.previous ? 'update' : 'create', source);
      return;
    }
    this.deps.indexOutbox?.remove(change.id);
    if (change.previous) {
      // The file is gone: listeners get what the index knew of it, without its content.
      const p = change.previous;
      const note: Note = { ...p, content: '', metadata: {}, ...(p.type !== undefined ? { type: p.type } : {}) };
      await this.deps.hooks.emit('note.afterDelete', { note, source: 'external' });
    }
  }

  private async afterWrite(note: Note, op: 'create' | 'update', source: WriteSource, previous?: Note): Promise<void> {
    this.deps.indexOutbox?.upsert(note);
    await this.deps.hooks.emit('note.afterWrite', { note, op, source, ...(previous ? { previous } : {}) });
  }
}

/** One step of `applyPlan`: an update (as `updateMany` takes it), a create, or a delete. */
export type PlanItem =
  | ({ kind: 'update'; previous?: Note } & NoteUpdate)
  | { kind: 'create'; input: NewNote }
  | { kind: 'delete'; id: string; expectedHash?: string }
  /** To another type; `to` is the id the store gives it there (the journal finds it by it after a crash). */
  | { kind: 'move'; id: string; type: string; to: string; expectedHash: string }
  /** A note file's exact new text (`null`: removed), if it is still at `expectedHash` (`null`: no file yet). */
  | { kind: 'text'; path: string; text: string | null; expectedHash: string | null; file?: true; replacedBy?: ReplacedBy };

type TextStep = Extract<JournalStep, { kind: 'text' }>;

export interface AppliedPlan {
  /** The journal entry, where the store keeps a journal (undo names it). */
  entryId?: string;
  results: Array<PromiseSettledResult<Note>>;
}

export interface Prepared {
  step: JournalStep;
  previous?: Note;
  titleChanged?: boolean;
}

/** What a `file` step answers for a plain file: its path and hash (a removed file: the empty text's). */
function fileAnswer(relPath: string, text: string): Note {
  const now = new Date().toISOString();
  return { id: relPath, title: path.posix.basename(relPath).replace(/\.md$/i, ''), content: text, tags: [], metadata: {}, created: now, updated: now, contentHash: contentHash(text) };
}

/** Creates run a few at once (their fsyncs share the filesystem journal's commits). */
const CREATE_CONCURRENCY = 64;
/** Notes per store `updateMany`: bounds how many note locks one operation holds at once. */
const UPDATE_BATCH = 256;

function mergeMetadata(base: Note['metadata'], change: Note['metadata'] | undefined): Note['metadata'] {
  if (!change) return base;
  const merged = { ...base };
  for (const [key, value] of Object.entries(change)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** The store's own `updateMany`, or one `update` after another for a store that has none. */
export function updateEach(store: NoteStore, items: readonly NoteUpdate[]): Promise<Array<PromiseSettledResult<Note>>> {
  if (store.updateMany) return store.updateMany(items);
  return items.reduce<Promise<Array<PromiseSettledResult<Note>>>>(
    async (done, item) => [...(await done), await settle(store.update(item.id, item.change, item.expectedHash))],
    Promise.resolve([]),
  );
}

export type { PlannedNote, PlanPreview } from './plan-preview.js';
