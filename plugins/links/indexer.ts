/**
 * Keeps the link tables true to the notes, one note at a time: extract and resolve a note's
 * links, drop a note, re-key a moved note, and re-resolve the links stored under the names
 * that changed. Synchronous (the store is): callers serialise calls through one queue and wrap
 * each in a LinkStore transaction. Names a note gives up are kept as former names, so links written
 * against them still resolve (by stable id) until links_repair rewrites them.
 */
import type { Note } from '../../kernel/note.js';
import { locationOf } from '../../toolkit/note-location.js';
import { keysOf, nameKey, stemOf, type NameIndex, type NoteNames } from './names.js';
import { scanMarkdown } from '../../toolkit/markdown/index.js';
import type { ExternalInput, LinkInput, LinkRecord, LinkStore, MoveRecord } from './store/types.js';

export interface ApplyResult {
  /** False when the note was already indexed at this hash under these names. */
  changed: boolean;
  /** Link keys whose resolution may have changed (for reresolve), also when `changed` is false. */
  keys: Set<string>;
  /** The title before, when this write changed it. */
  oldTitle: string | null;
  /**
   * Keys of the note's own links that a note named later could still claim: unresolved, or
   * resolved by a weaker name (stem, former) than a title that may yet appear.
   */
  linkKeys: string[];
}

const KEY_CHUNK = 400;

export class LinkIndexer {
  constructor(
    readonly links: LinkStore,
    readonly names: NameIndex,
  ) {}

  /** Extracts a note's links and stores them with the hash and names they came from. */
  apply(note: Note): ApplyResult {
    const after: NoteNames = { id: note.id, title: note.title, stem: stemOf(locationOf(note).filename) };
    const state = this.links.state(note.id);
    const known = this.names.get(note.id);
    const before: NoteNames | undefined = state ? { id: note.id, title: state.title, stem: state.stem } : known;
    this.names.add(after);
    const keys = new Set<string>();
    // Only a new note or a change of name can change what other notes' links resolve to. New
    // means new to the link tables or to the names: links stored while it was unknown to either
    // (a pass cut short by a crash, a drop that re-resolved before this note was read) resolve now.
    const fresh = !state || !known || known.title !== after.title || known.stem !== after.stem;
    if (fresh) for (const key of affectedKeys(after)) keys.add(key);
    if (state && state.content_hash === note.contentHash && state.title === after.title && state.stem === after.stem) {
      return { changed: false, keys, oldTitle: null, linkKeys: [] };
    }
    let oldTitle: string | null = null;
    if (before && (before.title !== after.title || before.stem !== after.stem)) {
      for (const key of [...affectedKeys(before), ...affectedKeys(after)]) keys.add(key);
      this.recordFormers(before, after);
      if (nameKey(before.title) !== nameKey(after.title)) oldTitle = before.title;
    }
    const { links, externals } = this.extract(note);
    this.links.replaceNote(
      { note_id: note.id, content_hash: note.contentHash, title: after.title, stem: after.stem },
      links,
      externals,
      state === undefined,
    );
    const open = links.filter((l) => l.resolved_by === null || l.resolved_by === 'stem' || l.resolved_by === 'former');
    return { changed: true, keys, oldTitle, linkKeys: open.map((l) => l.target_key) };
  }

  /** A note is gone: its links out go, links into it re-resolve (usually to nothing: broken). */
  drop(noteId: string): Set<string> {
    const state = this.links.state(noteId);
    const names =
      this.names.remove(noteId) ?? (state ? { id: noteId, title: state.title, stem: state.stem } : undefined);
    const keys = new Set(names ? affectedKeys(names) : []);
    for (const link of this.links.incoming(noteId)) keys.add(link.target_key);
    this.links.removeNote(noteId);
    this.links.dropFormersFor(noteId);
    this.names.dropFormerFor(noteId);
    return keys;
  }

  /** A note now lives under another id (moved file, moved type): re-key it and keep its old names. */
  move(fromId: string, note: Note, how?: MoveRecord['how']): Set<string> {
    const state = this.links.state(fromId);
    const before: NoteNames | undefined = state
      ? { id: fromId, title: state.title, stem: state.stem }
      : this.names.get(fromId);
    const keys = new Set<string>();
    for (const link of this.links.incoming(fromId)) keys.add(link.target_key);
    this.names.remove(fromId);
    this.links.renameNote(fromId, note.id);
    this.names.rekeyFormers(fromId, note.id);
    const after: NoteNames = { id: note.id, title: note.title, stem: stemOf(locationOf(note).filename) };
    this.names.add(after);
    for (const key of affectedKeys(after)) keys.add(key);
    if (before) {
      for (const key of affectedKeys(before)) keys.add(key);
      this.recordFormers(before, after);
      if (how)
        this.links.recordMove({ from_id: fromId, to_id: note.id, from_name: before.stem, to_name: after.stem, how });
    }
    // Its own relative markdown links depend on its folder: extract them again.
    const { links, externals } = this.extract(note);
    this.links.replaceNote(
      { note_id: note.id, content_hash: note.contentHash, title: after.title, stem: after.stem },
      links,
      externals,
    );
    return keys;
  }

  /**
   * A note deleted a moment ago reappears under a new id with the same bytes (a watcher reports
   * an `mv` as delete + create): keep its old names as former names of the new id, so links
   * written against them resolve again, and record the move for links_repair.
   */
  adoptVanished(before: NoteNames, note: Note): Set<string> {
    const after: NoteNames = { id: note.id, title: note.title, stem: stemOf(locationOf(note).filename) };
    this.recordFormers(before, after);
    this.links.recordMove({
      from_id: before.id,
      to_id: note.id,
      from_name: before.stem,
      to_name: after.stem,
      how: 'content_hash',
    });
    return new Set([...affectedKeys(before), ...affectedKeys(after)]);
  }

  /** Drops former names (of one note, or all); returns the link keys to re-resolve. */
  forgetFormers(noteId?: string): Set<string> {
    const keys = new Set<string>();
    for (const [formerKey, holder] of this.names.formerNames()) {
      if (noteId !== undefined && holder !== noteId) continue;
      keys.add(formerKey.slice(2));
      if (formerKey.startsWith('p:')) keys.add(`md:${formerKey.slice(2)}`);
    }
    if (noteId !== undefined) {
      this.links.dropFormersFor(noteId);
      this.names.dropFormerFor(noteId);
    } else {
      this.links.dropAllFormers();
      this.names.dropAllFormers();
    }
    return keys;
  }

  /** Re-resolves every link stored under `keys`; returns how many changed target. */
  reresolve(keys: Iterable<string>): number {
    const all = [...keys];
    let changed = 0;
    for (let i = 0; i < all.length; i += KEY_CHUNK)
      changed += this.reresolveRows(this.links.byKeys(all.slice(i, i + KEY_CHUNK)));
    return changed;
  }

  /** Re-resolves these stored links; returns how many changed target. */
  reresolveRows(rows: Iterable<Pick<LinkRecord, 'id' | 'target_key' | 'target_note_id' | 'resolved_by'>>): number {
    const updates: Array<{ id: number; target: string | null; by: LinkInput['resolved_by'] }> = [];
    for (const row of rows) {
      const resolution = this.names.resolveKey(row.target_key);
      if (resolution.target !== row.target_note_id || resolution.by !== row.resolved_by) {
        updates.push({ id: row.id, target: resolution.target, by: resolution.by });
      }
    }
    if (updates.length) this.links.retarget(updates);
    return updates.length;
  }

  extract(note: Pick<Note, 'id' | 'content'>): { links: LinkInput[]; externals: ExternalInput[] } {
    const scanned = scanMarkdown(note.content, { tags: false });
    const links: LinkInput[] = [];
    for (const link of scanned.links) {
      const key = this.names.keyFor(link, note.id);
      const resolution = this.names.resolveKey(key);
      links.push({
        target_note_id: resolution.target,
        target_title: link.targetText,
        link_text: link.alias,
        line_number: link.line,
        target_key: key,
        kind: link.kind,
        resolved_by: resolution.by,
        start_offset: link.start,
        end_offset: link.end,
      });
    }
    const externals: ExternalInput[] = scanned.externals.map((e) => ({
      url: e.url,
      title: e.title,
      line_number: e.line,
      link_type: e.kind,
    }));
    return { links, externals };
  }

  private recordFormers(before: NoteNames, after: NoteNames): void {
    const b = keysOf(before);
    const a = keysOf(after);
    const set = (key: string): void => {
      this.links.setFormer(key, after.id);
      this.names.setFormer(key, after.id);
    };
    if (b.title !== a.title) set(`t:${b.title}`);
    if (b.stem !== a.stem) set(`s:${b.stem}`);
    if (b.path !== a.path) set(`p:${b.path}`);
  }
}

/** Every stored link key a note's names can answer (see NameIndex.keyFor / resolveKey). */
export function affectedKeys(names: NoteNames): string[] {
  const k = keysOf(names);
  const keys = [k.title, k.stem, k.path, `md:${k.path}`];
  if (k.idToken) keys.push(`id:${k.idToken}`);
  return keys;
}
