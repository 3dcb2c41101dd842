/**
 * Which note a link names. Resolution (seed 000, seed 002, issue 5): an `id__XXXXXX` reference
 * by id; a target with a folder by vault path; then by title; then by filename stem; then by a
 * name the note had before (a former title, stem or path, so links survive renames and moves
 * until links_repair rewrites them). Every comparison is on `nameKey`: letter-folded as search
 * folds (`[[Lodz]]` finds `Łódź`), case-folded, whitespace collapsed, a trailing `.md` dropped. Ties go to the smallest id, so every process
 * resolves the same way.
 */
import path from 'node:path';
import type { NoteSummary } from '../../kernel/note.js';
import { locationOf } from '../../toolkit/note-location.js';
import type { NoteLink } from '../../toolkit/markdown/index.js';
import { foldLetters } from '../../toolkit/search/fold-letters.js';

export type ResolvedBy = 'id' | 'path' | 'title' | 'stem' | 'former';

export interface Resolution {
  target: string | null;
  by: ResolvedBy | null;
}

/** The identity of a name: `My Note.md`, ` my  note ` and `MY NOTE` are one key. */
export function nameKey(text: string): string {
  // Fast paths: this runs for every note at start-up and every link at extraction.
  let key = NON_ASCII.test(text) ? foldLetters(text) : text;
  key = key.trim();
  if (SPACE_RUN.test(key)) key = key.replace(/\s+/g, ' ');
  key = key.toLowerCase();
  return key.endsWith('.md') ? key.slice(0, -3) : key;
}

const NON_ASCII = /[^\x00-\x7f]/;
const SPACE_RUN = /\s\s|[\t\n\r\f\v]/;

/** The filename without `.md`, which is what a wikilink by filename writes. */
export function stemOf(filename: string): string {
  return filename.replace(/\.md$/i, '');
}

const ID_TOKEN = /(?:^|[\s_-])(id__[A-Za-z0-9]{6})$/;

/** A note's names as stored for rename detection and re-resolution. */
export interface NoteNames {
  id: string;
  title: string;
  stem: string;
}

export function namesOf(summary: Pick<NoteSummary, 'id' | 'title' | 'filename'>): NoteNames {
  return { id: summary.id, title: summary.title, stem: stemOf(locationOf(summary).filename) };
}

/** The lookup keys a note answers to: title, stem, path (id) and id token. */
export function keysOf(names: NoteNames): { title: string; stem: string; path: string; idToken: string | null } {
  const token = ID_TOKEN.exec(names.stem)?.[1] ?? (/^id__[A-Za-z0-9]{6}$/.test(names.id) ? names.id : null);
  return { title: nameKey(names.title), stem: nameKey(names.stem), path: nameKey(names.id), idToken: token };
}

export class NameIndex {
  private readonly byTitle = new Map<string, string[]>();
  private readonly byStem = new Map<string, string[]>();
  private readonly byPath = new Map<string, string>();
  private readonly byToken = new Map<string, string>();
  private readonly names = new Map<string, NoteNames>();
  /** `t:`/`s:`/`p:` + key → the note that had that name. */
  private former = new Map<string, string>();

  /** Where the names come from, read and indexed on first use (a process that never resolves a link never pays). */
  private unbuilt: (() => Iterable<NoteNames>) | undefined;

  rebuild(summaries: readonly NoteSummary[], former: Map<string, string>): void {
    this.unbuilt = () => summaries.map(namesOf);
    this.former = former;
  }

  /**
   * The same from the names the link index stored with each note (no listing of the store),
   * read when first needed: at 100,000 notes they are ~85 MB while being indexed, and
   * `notekernel index` never needs them.
   */
  rebuildFromNames(load: () => Iterable<NoteNames>, former: Map<string, string>): void {
    this.unbuilt = load;
    this.former = former;
  }

  private built(): this {
    const load = this.unbuilt;
    if (load === undefined) return this;
    this.unbuilt = undefined;
    this.byTitle.clear();
    this.byStem.clear();
    this.byPath.clear();
    this.byToken.clear();
    this.names.clear();
    for (const names of load()) this.add(names);
    return this;
  }

  has(id: string): boolean {
    return this.built().names.has(id);
  }

  get(id: string): NoteNames | undefined {
    return this.built().names.get(id);
  }

  ids(): IterableIterator<string> {
    return this.built().names.keys();
  }

  get size(): number {
    return this.built().names.size;
  }

  add(names: NoteNames): void {
    const existing = this.built().names.get(names.id);
    if (existing && existing.title === names.title && existing.stem === names.stem) return;
    if (existing) this.remove(names.id);
    this.names.set(names.id, names);
    const keys = keysOf(names);
    push(this.byTitle, keys.title, names.id);
    push(this.byStem, keys.stem, names.id);
    this.byPath.set(keys.path, names.id);
    if (keys.idToken) this.byToken.set(keys.idToken, names.id);
  }

  remove(id: string): NoteNames | undefined {
    const names = this.built().names.get(id);
    if (!names) return undefined;
    this.names.delete(id);
    const keys = keysOf(names);
    pull(this.byTitle, keys.title, id);
    pull(this.byStem, keys.stem, id);
    if (this.byPath.get(keys.path) === id) this.byPath.delete(keys.path);
    if (keys.idToken && this.byToken.get(keys.idToken) === id) this.byToken.delete(keys.idToken);
    return names;
  }

  setFormer(key: string, id: string): void {
    this.former.set(key, id);
  }

  rekeyFormers(fromId: string, toId: string): void {
    for (const [key, holder] of this.former) if (holder === fromId) this.former.set(key, toId);
  }

  /** Former names (`t:`/`s:`/`p:` + key) and the note that had each. */
  formerNames(): ReadonlyMap<string, string> {
    return this.former;
  }

  dropAllFormers(): void {
    this.former.clear();
  }

  dropFormerFor(id: string): void {
    for (const [key, holder] of this.former) if (holder === id) this.former.delete(key);
  }

  /**
   * The key a link is stored under; re-resolving that key alone gives the link's target, so a
   * note appearing, being renamed or deleted re-resolves exactly the links stored under its keys.
   */
  keyFor(link: NoteLink, sourceId: string): string {
    this.built();
    if (link.idRef) return `id:${link.idRef}`;
    if (link.kind !== 'markdown') return nameKey(link.target);
    // Relative to the linking note's folder (as GitHub renders it), else to the vault root.
    const relative = nameKey(
      path.posix.normalize(path.posix.join(path.posix.dirname(sourceId), link.target)).replace(/^\/+/, ''),
    );
    const rooted = nameKey(path.posix.normalize(link.target).replace(/^\/+/, ''));
    return `md:${this.byPath.has(relative) || !this.byPath.has(rooted) ? relative : rooted}`;
  }

  /** Resolves a stored link key (see keyFor). */
  resolveKey(key: string): Resolution {
    this.built();
    if (key.startsWith('id:')) return found(this.byToken.get(key.slice(3)), 'id') ?? NONE;
    if (key.startsWith('md:')) {
      const p = key.slice(3);
      return found(this.byPath.get(p), 'path') ?? found(this.former.get(`p:${p}`), 'former') ?? NONE;
    }
    if (key.includes('/')) {
      const byPath = found(this.byPath.get(key), 'path');
      if (byPath) return byPath;
    }
    return (
      found(this.byTitle.get(key)?.[0], 'title') ??
      found(this.byStem.get(key)?.[0], 'stem') ??
      found(this.former.get(`t:${key}`) ?? this.former.get(`s:${key}`) ?? this.former.get(`p:${key}`), 'former') ??
      NONE
    );
  }

  /** Ids of notes with this title (by nameKey), sorted. */
  titled(title: string): string[] {
    return [...(this.built().byTitle.get(nameKey(title)) ?? [])];
  }

  /**
   * A tool's `identifier`: a note id (with or without `.md`), else a title, else a stem.
   * Former names do not count: a tool argument names a note as it is now.
   */
  lookup(identifier: string): string | undefined {
    this.built();
    if (this.names.has(identifier)) return identifier;
    const key = nameKey(identifier);
    return this.byPath.get(key) ?? this.byTitle.get(key)?.[0] ?? this.byStem.get(key)?.[0];
  }
}

const NONE: Resolution = { target: null, by: null };

function found(id: string | undefined, by: ResolvedBy): Resolution | undefined {
  return id === undefined ? undefined : { target: id, by };
}

function push(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  if (!list) {
    map.set(key, [id]);
    return;
  }
  if (list.includes(id)) return;
  list.push(id);
  list.sort();
}

function pull(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  if (!list) return;
  const next = list.filter((x) => x !== id);
  if (next.length) map.set(key, next);
  else map.delete(key);
}
