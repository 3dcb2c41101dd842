/**
 * What one serving process knew of each note (its content hash), kept while it watches the files.
 * The index is shared by every process on the vault, so it cannot tell this one what changed: the
 * process that indexes a changed file first would leave the others nothing to announce. Seeded
 * from the index when watching starts, then moved by this process's own writes and by each
 * change it hears of.
 */
import path from 'node:path';
import type { Note, NoteSummary } from '../../kernel/note.js';
import type { ExternalChange } from '../../kernel/note-store.js';
import type { FileState } from './index-db.js';

export class KnownNotes {
  /** Empty until watching starts: a process that does not watch keeps nothing. */
  private hashes: Map<string, string> | undefined;

  /**
   * Seeds as soon as the store is ready, before any change is synced (a change waits for the same
   * readiness); if that fails (the first refresh did), the first synced change seeds.
   */
  follow(ready: Promise<unknown>, states: () => Map<string, FileState>): void {
    ready.then(
      () => this.seed(states),
      () => undefined,
    );
  }

  /** Takes the index's hashes once (a function, so a seeded set costs nothing). */
  seed(states: Map<string, FileState> | (() => Map<string, FileState>)): void {
    if (this.hashes) return;
    const all = typeof states === 'function' ? states() : states;
    this.hashes = new Map([...all].map(([id, state]) => [id, state.contentHash]));
  }

  /** This process wrote the note (or dropped it: `undefined`). */
  wrote(id: string, contentHash: string | undefined): void {
    if (contentHash === undefined) this.hashes?.delete(id);
    else this.hashes?.set(id, contentHash);
  }

  /**
   * The change to announce for a file re-read after a watch event — `note` as it is now
   * (undefined: gone), `row` as the shared index has it — or nothing when this process knew it so.
   */
  heard(id: string, note: Note | undefined, row: NoteSummary | undefined): ExternalChange | undefined {
    const knew = this.hashes ? this.hashes.get(id) : row?.contentHash;
    this.wrote(id, note?.contentHash);
    if (note) {
      if (knew === note.contentHash) return undefined;
      // The row may already be this note's (another process indexed it): then it is no previous.
      const previous = row && row.contentHash !== note.contentHash ? row : undefined;
      return { kind: 'written', note, ...(previous ? { previous } : {}) };
    }
    if (knew === undefined) return undefined;
    // Another process dropped the row with its file: what this one knew of the note stands in.
    return { kind: 'deleted', id, previous: row ?? goneNote(id, knew) };
  }
}

/** A note another process deleted, row and file, before this one read it again: its id and last hash. */
function goneNote(id: string, contentHash: string): NoteSummary {
  const file = path.posix.basename(id);
  const dir = path.posix.dirname(id);
  return {
    id,
    title: file.replace(/\.md$/i, ''),
    ...(dir !== '.' ? { type: dir } : {}),
    created: '',
    updated: '',
    contentHash,
    tags: [],
    metadata: {},
  };
}
