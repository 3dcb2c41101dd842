/**
 * A file watcher reports `mv a.md b.md` as "a deleted" then "b created". The delete is applied
 * at once (links into `a` break, as a delete must); the deleted note's names are remembered
 * here for a minute by content hash, so the create that follows with the same bytes is taken
 * for a move and those links resolve again. Two deleted notes with one hash prove nothing.
 */
import type { NoteNames } from './names.js';
import type { NoteState } from './store/types.js';

const KEEP_MS = 60_000;

export class VanishedNotes {
  private readonly byHash = new Map<string, { names: NoteNames | null; at: number }>();

  remember(state: NoteState | undefined): void {
    if (!state) return;
    this.prune();
    const names = { id: state.note_id, title: state.title, stem: state.stem };
    // A second note with the same bytes makes the hash ambiguous: remember that, not a guess.
    this.byHash.set(state.content_hash, { names: this.byHash.has(state.content_hash) ? null : names, at: Date.now() });
  }

  take(hash: string): NoteNames | undefined {
    this.prune();
    const entry = this.byHash.get(hash);
    if (!entry) return undefined;
    this.byHash.delete(hash);
    return entry.names ?? undefined;
  }

  private prune(): void {
    const cutoff = Date.now() - KEEP_MS;
    for (const [hash, entry] of this.byHash) if (entry.at < cutoff) this.byHash.delete(hash);
  }
}
