/**
 * Keeps the tag store true to the notes. Hooks only note what changed; the changes are applied
 * in one transaction before the next read (or every 256 changes), so a burst of writes (a
 * rename rewriting 200 notes) pays nothing for tags on its write path. A reconcile on first use
 * (and before the vault-wide tools) re-reads only notes whose content hash changed: first use
 * rather than start-up, so start-up stays fast and a vault nobody asks about tags never pays.
 */
import type { IndexPassObserver, NoteStore } from '../../kernel/backend.js';
import type { HookHandlers } from '../../kernel/hooks.js';
import type { Logger } from '../../kernel/logger.js';
import type { Note } from '../../kernel/note.js';
import { KeyedMutex } from '../../toolkit/mutex.js';
import { extractTags, tagKey } from '../../toolkit/markdown/index.js';
import type { TagCount, TagQuery, TagsService } from './service.js';
import type { TagRow, TagStore } from './store.js';

/** The store's snapshot token (NoteStore.snapshotToken) at the last complete check of every note's hash. */
const STORE_TOKEN = 'store_token';
/**
 * Set by a first build's index pass that stored every note it read (no batch failed): the next
 * check records the store's token instead of listing every note. Any later pass clears it.
 */
const PASS_WHOLE = 'index_pass_whole';

export interface TagReconcileReport {
  scanned: number;
  extracted: number;
  removed: number;
  ms: number;
}

export class TagIndex implements TagsService {
  private readonly mutex = new KeyedMutex();
  private reconciled = false;
  /** Changes seen by hooks, not applied yet: id → the note as written, or null when gone. */
  private readonly pending = new Map<string, Note | null>();

  constructor(private readonly deps: { tags: TagStore; store: NoteStore; logger: Logger }) {}

  run<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.mutex.run('tags', async () => fn());
  }

  hooks(): HookHandlers {
    return {
      'note.afterWrite': ({ note }) => this.defer(note.id, note),
      'note.afterDelete': ({ note }) => this.defer(note.id, null),
      'note.afterMove': ({ note, fromId }) => {
        this.defer(fromId, null);
        this.defer(note.id, note);
      },
    };
  }

  apply(note: Note): void {
    this.deps.tags.replace(note.id, note.contentHash, tagsOfNote(note));
  }

  /**
   * Tags taken from the backend's own index pass (NoteStore.observeIndexPass, decision 026), so
   * `notekernel index` leaves them complete and the first use finds every note at its hash. The
   * pass reads each file after any write a hook noted (writes wait for it), so its read wins.
   */
  indexPassObserver(): IndexPassObserver {
    const { tags } = this.deps;
    /** A first build into empty tables writes every note fresh, without the secondary indexes. */
    let bulk = false;
    let failed = false;
    return {
      begin: ({ first }) => {
        bulk = first && this.pending.size === 0 && tags.empty();
        failed = false;
        if (bulk) tags.secondaryIndexes?.drop();
        else tags.setMeta(PASS_WHOLE, null);
      },
      batch: (notes, removed) => {
        try {
          tags.transaction(() => {
            for (const id of removed) {
              this.pending.delete(id);
              tags.remove(id);
            }
            for (const note of notes) {
              this.pending.delete(note.id);
              tags.replace(note.id, note.contentHash, tagsOfNote(note), bulk);
            }
          });
        } catch (err) {
          // The notes index stands; the next reconcile re-reads what this batch did not store.
          failed = true;
          this.deps.logger.error({ err }, 'tags: a batch of the index pass failed');
        }
      },
      end: (complete) => {
        if (bulk) {
          tags.secondaryIndexes?.create();
          if (complete && !failed) tags.setMeta(PASS_WHOLE, '1');
        }
        bulk = false;
      },
    };
  }

  /** Applies the changes the hooks noted; call inside `run`. */
  flush(): void {
    if (!this.pending.size) return;
    const changes = [...this.pending];
    this.pending.clear();
    this.deps.tags.transaction(() => {
      for (const [id, note] of changes) {
        if (note) this.apply(note);
        else this.deps.tags.remove(id);
      }
    });
  }

  private defer(id: string, note: Note | null): void {
    this.pending.set(id, note);
    if (this.pending.size >= 256)
      void this.run(() => this.flush()).catch((err: unknown) =>
        this.deps.logger.error({ err }, 'tags: applying changes failed'),
      );
  }

  /** The tag tables were emptied (the index was rebuilt): the next use extracts every note's tags again. */
  invalidate(): void {
    this.reconciled = false;
  }

  async reconcile(): Promise<TagReconcileReport> {
    return this.run(async () => {
      this.flush();
      const started = performance.now();
      const { tags } = this.deps;
      // The store says nothing changed since the last complete check (or since the first build
      // that stored every note): no listing, which at 100,000 notes took seconds on every call.
      const token = await this.deps.store.snapshotToken?.();
      if (token !== undefined && tags.meta(PASS_WHOLE) !== undefined) {
        tags.transaction(() => {
          tags.setMeta(STORE_TOKEN, token);
          tags.setMeta(PASS_WHOLE, null);
        });
      }
      if (token !== undefined && !this.pending.size && tags.meta(STORE_TOKEN) === token) {
        this.reconciled = true;
        return { scanned: 0, extracted: 0, removed: 0, ms: Math.round(performance.now() - started) };
      }
      const summaries = await this.deps.store.list();
      const hashes = this.deps.tags.hashes();
      const stale = summaries.filter((s) => hashes.get(s.id) !== s.contentHash);
      for (const s of summaries) hashes.delete(s.id);
      for (const id of hashes.keys()) this.deps.tags.remove(id);
      let extracted = 0;
      for (let i = 0; i < stale.length; i += 64) {
        const batch = stale.slice(i, i + 64);
        const notes = await Promise.all(batch.map((s) => this.deps.store.get(s.id).catch(() => undefined)));
        this.deps.tags.transaction(() => {
          batch.forEach((s, k) => {
            const note = notes[k];
            if (note) {
              this.apply(note);
              extracted++;
            } else this.deps.tags.remove(s.id);
          });
        });
      }
      // Writes meanwhile were noted by the hooks (pending) and change the token: the next check
      // with a different token compares again.
      tags.setMeta(STORE_TOKEN, token ?? null);
      this.reconciled = true;
      return {
        scanned: summaries.length,
        extracted,
        removed: hashes.size,
        ms: Math.round(performance.now() - started),
      };
    });
  }

  async list(options: { prefix?: string } = {}): Promise<TagCount[]> {
    await this.ready();
    const prefix = options.prefix === undefined ? undefined : tagKey(options.prefix);
    const byKey = new Map<string, { notes: number; spellings: Map<string, number> }>();
    for (const pair of this.deps.tags.pairs()) {
      if (prefix !== undefined && !pair.tag_key.startsWith(prefix)) continue;
      const entry = byKey.get(pair.tag_key) ?? { notes: 0, spellings: new Map<string, number>() };
      entry.notes++;
      entry.spellings.set(pair.tag, (entry.spellings.get(pair.tag) ?? 0) + 1);
      byKey.set(pair.tag_key, entry);
    }
    const out: TagCount[] = [];
    for (const { notes, spellings } of byKey.values()) {
      const tag = [...spellings].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] as string;
      out.push({ tag, count: notes });
    }
    return out.sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  }

  async tagsOf(noteId: string): Promise<string[]> {
    await this.ready();
    const seen = new Map<string, string>();
    for (const row of this.deps.tags.tagsOf(noteId)) if (!seen.has(row.tag_key)) seen.set(row.tag_key, row.tag);
    return [...seen.values()];
  }

  async notesWith(query: TagQuery): Promise<string[]> {
    await this.ready();
    const nested = query.nested ?? true;
    const has = (tag: string) => this.deps.tags.notesWith(tagKey(tag), nested);
    let result: Set<string> | undefined;
    const narrow = (set: Set<string>) => (result = result ? new Set([...result].filter((id) => set.has(id))) : set);
    for (const tag of query.all ?? []) narrow(has(tag));
    if (query.any?.length) {
      const union = new Set<string>();
      for (const tag of query.any) for (const id of has(tag)) union.add(id);
      narrow(union);
    }
    const base = result ?? new Set(this.deps.tags.hashes().keys());
    const excluded = new Set<string>();
    for (const tag of query.none ?? []) for (const id of has(tag)) excluded.add(id);
    return [...base].filter((id) => !excluded.has(id)).sort();
  }

  private async ready(): Promise<void> {
    if (!this.reconciled) await this.reconcile();
    else if (this.pending.size) await this.run(() => this.flush());
  }
}

/** Frontmatter (the note's own `tags`) and inline `#tags`, each with where it came from. */
export function tagsOfNote(note: Pick<Note, 'tags' | 'content'>): Array<Omit<TagRow, 'note_id'>> {
  const out: Array<Omit<TagRow, 'note_id'>> = [];
  for (const raw of note.tags) {
    const tag = raw.trim().replace(/^#/, '');
    if (tag) out.push({ tag, tag_key: tagKey(tag), source: 'frontmatter', line_number: null });
  }
  for (const t of extractTags(note.content))
    out.push({ tag: t.tag, tag_key: tagKey(t.tag), source: 'inline', line_number: t.line });
  return out;
}
