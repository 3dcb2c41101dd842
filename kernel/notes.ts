/**
 * The one write path: plugins and tools change notes here, never through the store, so every
 * write runs the beforeWrite hooks once, reaches the store's compare-and-swap, keeps a separate
 * search index in step and notifies the after* listeners. An update is one read-modify-write: the
 * store reads the note under its lock, checks the hash and calls back here for the change before
 * it writes. Multi-note plans (toolkit/plans) are built on these methods.
 */
import path from 'node:path';
import type { NoteStore, NoteUpdate, ExternalChange, SearchIndex, VaultFiles } from './backend.js';
import { requireMember } from './backend.js';
import type { HookRunner, NoteDraft, WriteSource } from './hooks.js';
import type { Logger } from './logger.js';
import type { ListQuery, Metadata, Note, NoteChange, NoteEdit, NewNote, NoteSummary } from './note.js';
import { ConflictError, ContentHashMismatchError, NotekernelError, NotFoundError } from './errors.js';
import { settle } from './util/settle.js';

export interface NoteServiceDeps {
  store: NoteStore;
  storageBackend: string;
  /** A search index beside the store (kept in step by KernelExtras.keepIndexInStep); undefined when the store indexes itself. */
  separateIndex?: SearchIndex;
  hooks: HookRunner;
  logger: Logger;
}

/** A write's note and what the write hooks had to say about it (fields no schema defines, ...). */
export interface Written {
  note: Note;
  warnings: string[];
}

/** An update as the hooks left it, ready for the store. */
export interface DraftedUpdate {
  change: NoteChange;
  previous: Note;
  titleChanged: boolean;
  warnings: string[];
}

/** A change as a caller gives it: merged over the note's metadata, or made from the note itself. */
export type UpdateInput = NoteChange | ((current: Note) => NoteChange | Promise<NoteChange>);

export class NoteService {
  constructor(private readonly deps: NoteServiceDeps) {}

  get store(): NoteStore {
    return this.deps.store;
  }

  get storageBackend(): string {
    return this.deps.storageBackend;
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

  async create(input: NewNote): Promise<Written> {
    const drafted = await this.draftCreate(input);
    const note = await this.deps.store.create(drafted.input);
    await this.announceCreate(note);
    return { note, warnings: drafted.warnings };
  }

  /** One read-modify-write inside the store's compare-and-swap: one read, one hook pass. */
  async update(id: string, change: UpdateInput, expectedHash: string): Promise<Written> {
    let drafted: DraftedUpdate | undefined;
    const note = await this.deps.store.update(
      id,
      this.editFor(change, (d) => (drafted = d)),
      expectedHash,
    );
    if (!drafted)
      throw new NotekernelError(
        'internal',
        `Backend "${this.deps.storageBackend}" wrote ${id} without calling its edit (NoteStore.update).`,
      );
    await this.announceUpdate(note, drafted.previous, drafted.titleChanged);
    return { note, warnings: drafted.warnings };
  }

  /**
   * Several updates (a rename's link rewrites): each is drafted, swapped and announced on its
   * own and fails alone; the store may share locks, fsyncs and its index transaction among them.
   */
  async updateMany(
    items: ReadonlyArray<{ id: string; change: UpdateInput; expectedHash: string }>,
  ): Promise<Array<PromiseSettledResult<Note>>> {
    const drafted: Array<DraftedUpdate | undefined> = new Array(items.length);
    const updates: NoteUpdate[] = items.map((item, k) => ({
      id: item.id,
      change: this.editFor(item.change, (d) => (drafted[k] = d)),
      expectedHash: item.expectedHash,
    }));
    const stored = await updateEach(this.deps.store, updates);
    return Promise.all(
      stored.map(async (outcome, k) => {
        if (outcome.status === 'rejected') return outcome;
        const { previous, titleChanged } = drafted[k] as DraftedUpdate;
        return settle(this.announceUpdate(outcome.value, previous, titleChanged).then(() => outcome.value));
      }),
    );
  }

  private editFor(change: UpdateInput, keep: (drafted: DraftedUpdate) => void): NoteEdit {
    return async (current) => {
      const drafted = await this.draftUpdate(current, typeof change === 'function' ? await change(current) : change);
      keep(drafted);
      return drafted.change;
    };
  }

  /** A new note as the write hooks leave it (a schema's defaults, a normalised title). */
  async draftCreate(input: NewNote): Promise<{ input: NewNote; warnings: string[] }> {
    const draft = await this.deps.hooks.beforeWrite({
      op: 'create',
      title: input.title,
      content: input.content,
      ...(input.type !== undefined ? { type: input.type } : {}),
      metadata: { ...(input.metadata ?? {}) },
      changedKeys: Object.keys(input.metadata ?? {}),
    });
    return {
      input: { ...input, title: draft.title, content: draft.content, metadata: draft.metadata },
      warnings: draft.warnings ?? [],
    };
  }

  /** `change` over `previous` as the write hooks leave it: metadata merged key by key, a `null` removing one. */
  async draftUpdate(previous: Note, change: NoteChange): Promise<DraftedUpdate> {
    const draft: NoteDraft = await this.deps.hooks.beforeWrite({
      op: 'update',
      id: previous.id,
      title: change.title ?? previous.title,
      content: change.content ?? previous.content,
      ...(previous.type !== undefined ? { type: previous.type } : {}),
      metadata: mergeMetadata(previous.metadata, change.metadata),
      changedKeys: Object.keys(change.metadata ?? {}),
      previous,
    });
    return {
      change: {
        ...(change.title !== undefined ? { title: draft.title } : {}),
        ...(change.content !== undefined ? { content: draft.content } : {}),
        metadata: draft.metadata,
        ...(change.tags !== undefined ? { tags: change.tags } : {}),
        ...(change.updated !== undefined ? { updated: change.updated } : {}),
      },
      previous,
      titleChanged: change.title !== undefined && change.title !== previous.title,
      warnings: draft.warnings ?? [],
    };
  }

  async delete(id: string, expectedHash?: string): Promise<Note> {
    const note = await this.deps.store.delete(id, expectedHash);
    await this.toIndex((index) => index.remove(id));
    await this.deps.hooks.emit('note.afterDelete', { note, source: 'tool' });
    return note;
  }

  async move(id: string, newType: string, expectedHash: string): Promise<Note> {
    const move = requireMember(
      this.deps.store.move?.bind(this.deps.store),
      this.deps.storageBackend,
      'typed-notes',
      'move_note',
    );
    const note = await move(id, newType, expectedHash);
    await this.toIndex(async (index) => {
      await index.remove(id);
      await index.upsert(note);
    });
    await this.deps.hooks.emit('note.afterMove', { note, fromId: id, source: 'tool' });
    return note;
  }

  /**
   * Writes `text` at `relPath` byte for byte (no keys added) if the file is still at
   * `expectedHash` (`null`: it must not exist yet), then reads it back through the store and tells
   * the listeners, as a tool's write. Undefined when the store keeps no note at that path.
   */
  async writeText(relPath: string, text: string, expectedHash: string | null): Promise<Note | undefined> {
    const files = this.files('exact text');
    const previous = expectedHash === null ? undefined : await this.get(relPath);
    const folder = path.posix.dirname(relPath);
    if (folder !== '.') await files.mkdir(folder);
    try {
      await files.writeText(relPath, text, { expectedHash: expectedHash ?? '' });
    } catch (err) {
      if (expectedHash === null && err instanceof ContentHashMismatchError)
        throw new ConflictError(`${relPath} already exists; nothing was overwritten.`, { path: relPath });
      throw err;
    }
    const note = await this.get(relPath).catch(() => undefined);
    if (!note) return undefined;
    await this.applyExternal({ kind: 'written', note, ...(previous ? { previous } : {}) }, 'tool');
    return note;
  }

  files(what: string): VaultFiles {
    return requireMember(this.deps.store.files, this.deps.storageBackend, 'files', what);
  }

  /** Feeds changes the store saw on disk (another program's, or a tool's exact-text write) through the same hooks. */
  async applyExternal(change: ExternalChange, source: WriteSource = 'external'): Promise<void> {
    if (change.kind === 'written') {
      await this.afterWrite(change.note, change.previous ? 'update' : 'create', source);
      return;
    }
    await this.toIndex((index) => index.remove(change.id));
    if (change.previous) {
      // The file is gone: listeners get what the index knew of it, without its content.
      const p = change.previous;
      const note: Note = { ...p, content: '', metadata: {}, ...(p.type !== undefined ? { type: p.type } : {}) };
      await this.deps.hooks.emit('note.afterDelete', { note, source: 'external' });
    }
  }

  announceCreate(note: Note): Promise<void> {
    return this.afterWrite(note, 'create', 'tool');
  }

  async announceUpdate(note: Note, previous: Note, titleChanged: boolean): Promise<void> {
    await this.afterWrite(note, 'update', 'tool', previous);
    if (titleChanged)
      await this.deps.hooks.emit('note.afterRename', { note, oldTitle: previous.title, source: 'tool' });
  }

  /** The note landed whatever the separate index does: a failure there is logged, and the next open's reconcile repairs it. */
  private async toIndex(write: (index: SearchIndex) => Promise<void>): Promise<void> {
    const index = this.deps.separateIndex;
    if (index)
      await write(index).catch((err: unknown) => this.deps.logger.warn({ err }, 'the search index missed a write'));
  }

  private async afterWrite(note: Note, op: 'create' | 'update', source: WriteSource, previous?: Note): Promise<void> {
    await this.toIndex((index) => index.upsert(note));
    await this.deps.hooks.emit('note.afterWrite', { note, op, source, ...(previous ? { previous } : {}) });
  }
}

function mergeMetadata(base: Metadata, change: Metadata | undefined): Metadata {
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
