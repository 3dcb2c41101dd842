/**
 * Where links live. Two implementations behind one interface: seed 000's tables in the
 * backend's SQLite file (capability `index-db`, so `search_notes_sql` can join them), or maps
 * in memory for backends without it. Everything here is synchronous (better-sqlite3 is), so a
 * note's links change in one transaction with no await inside.
 */
import type { ResolvedBy } from '../names.js';
import type { MovedNote } from '../service.js';
import type { SecondaryIndexes } from '../../../toolkit/sqlite-indexes.js';

export type LinkKind = 'wikilink' | 'embed' | 'markdown';

/** A row of `note_links` (seed 000's columns) joined with our bookkeeping for that row. */
export interface NoteLinkRow {
  id: number;
  source_note_id: string;
  target_note_id: string | null;
  target_title: string;
  link_text: string | null;
  line_number: number;
  created: string;
}

export interface LinkRecord extends NoteLinkRow {
  /** Key the link resolves by (NameIndex.keyFor); re-resolving it alone gives the target. */
  target_key: string;
  kind: LinkKind;
  resolved_by: ResolvedBy | null;
  start_offset: number;
  end_offset: number;
}

/** A row of `external_links` (seed 000's columns). */
export interface ExternalRecord {
  id: number;
  note_id: string;
  url: string;
  title: string | null;
  line_number: number;
  link_type: string;
  created: string;
}

/** What a note's links were extracted from: its hash, and its names at that moment. */
export interface NoteState {
  note_id: string;
  content_hash: string;
  title: string;
  stem: string;
}

export type LinkInput = Omit<LinkRecord, 'id' | 'source_note_id' | 'created'>;
export type ExternalInput = Omit<ExternalRecord, 'id' | 'note_id' | 'created'>;

/**
 * A change of name made outside the tools, as reconcile or a hook saw it: a file found under a
 * new id with the bytes of one that vanished (`content_hash`), a backend id that survived a
 * file rename (`same_id`), or a title edited in the file (`retitled`).
 */
/** A detected move as stored: the service's MovedNote (from/to name: the filename stem, or the title for `retitled`) with its row id. */
export interface MoveRecord extends MovedNote {
  id: number;
}

/**
 * Writes do not open transactions of their own: the caller wraps each logical change (one
 * note, one reconcile batch) in `transaction`, so a batch of 64 notes is one commit, not 64
 * savepoints.
 */
export interface LinkStore {
  readonly kind: 'index-db' | 'memory';
  transaction<T>(fn: () => T): T;
  /** Indexes a first build may fill the tables without (SQLite; none in memory). */
  readonly secondaryIndexes?: SecondaryIndexes;

  states(): Map<string, NoteState>;
  state(noteId: string): NoteState | undefined;
  /** Notes last extracted at this content hash (move detection: same bytes under a new id). */
  statesByHash(hash: string): NoteState[];
  /** Replaces a note's outgoing links, external links and state (`fresh`: it has none yet). */
  replaceNote(
    state: NoteState,
    links: readonly LinkInput[],
    externals: readonly ExternalInput[],
    fresh?: boolean,
  ): void;
  /** Drops a note's outgoing links, external links and state; links into it are left to the caller. */
  removeNote(noteId: string): void;
  /** Re-keys a note (moved or renamed file): its rows, the links into it, its state and former names. */
  renameNote(fromId: string, toId: string): void;

  outgoing(noteId: string): LinkRecord[];
  incoming(noteId: string): LinkRecord[];
  externals(noteId: string): ExternalRecord[];
  broken(): LinkRecord[];
  byKeys(keys: readonly string[]): LinkRecord[];
  /** Links a note named later could still claim (unresolved, or by stem or former name), in one scan. */
  openLinks(): Array<Pick<LinkRecord, 'id' | 'target_key' | 'target_note_id' | 'resolved_by'>>;
  retarget(updates: ReadonlyArray<{ id: number; target: string | null; by: ResolvedBy | null }>): void;
  /** Distinct (source, target) pairs of resolved links. */
  edges(): Array<{ source: string; target: string }>;
  externalUrls(): Array<{ note_id: string; url: string }>;
  counts(): { links: number; externals: number; notes: number };
  /** Empties every table (links, externals, states, the snapshot fingerprint); former names and moves stay. */
  clear(): void;
  /** Small bookkeeping values (the fingerprint of the last reconciled snapshot). */
  meta(key: string): string | undefined;
  setMeta(key: string, value: string | null): void;

  formers(): Map<string, string>;
  setFormer(key: string, noteId: string): void;
  dropFormersFor(noteId: string): void;
  dropAllFormers(): void;

  recordMove(move: Omit<MoveRecord, 'id' | 'detected_at' | 'repaired_at'>): void;
  moves(options?: { pending?: boolean }): MoveRecord[];
  markRepaired(ids: readonly number[]): void;
}

/** seed 000's `created` format (SQLite's CURRENT_TIMESTAMP), for rows made in memory too. */
export function sqlTimestamp(date = new Date()): string {
  return date.toISOString().replace('T', ' ').slice(0, 19);
}
