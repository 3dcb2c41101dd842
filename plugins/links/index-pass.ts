/**
 * Links built in the backend's own index pass (NoteStore.observeIndexPass, decision 026): each
 * batch of notes the backend read and parsed is extracted here at once, so `notekernel index`
 * (and the refresh at open) leaves the link index complete and the start-up reconcile finds
 * every note at its hash, reading no file. A file moved while nobody watched arrives as one id
 * gone and one new id with the same bytes: it is re-keyed as a move, as the reconcile would.
 *
 * Runs outside the links queue: the queue's start-up reconcile waits for the store's pass, so
 * queueing the pass behind it would wait for itself. Nothing else writes the link tables while
 * the pass runs (every store write and listing waits for it).
 */
import type { IndexPassObserver } from '../../kernel/backend.js';
import type { Logger } from '../../kernel/logger.js';
import type { Note } from '../../kernel/note.js';
import type { LinkIndexer } from './indexer.js';

export function linksIndexPass(indexer: LinkIndexer, logger: Logger, onMoved: () => void): IndexPassObserver {
  const links = indexer.links;
  let keys = new Set<string>();
  /** Ids gone in this pass, and the unique content hash of each (null: two gone notes shared it). */
  let gone = new Map<string, string>();
  let goneByHash = new Map<string, string | null>();
  let moved = 0;
  let extracted = 0;

  const applyOne = (note: Note): void => {
    const twin = links.state(note.id) ? undefined : goneByHash.get(note.contentHash);
    if (twin) {
      goneByHash.delete(note.contentHash);
      gone.delete(twin);
      for (const key of indexer.move(twin, note, 'content_hash')) keys.add(key);
      logger.info({ from: twin, to: note.id }, 'note moved outside the server; links_repair rewrites its inbound links');
      moved++;
      return;
    }
    const result = indexer.apply(note);
    if (result.changed) extracted++;
    for (const key of result.keys) keys.add(key);
    for (const key of result.linkKeys) keys.add(key);
  };

  return {
    batch(notes, removed) {
      try {
        links.transaction(() => {
          for (const id of removed) {
            const state = links.state(id);
            if (!state) continue;
            gone.set(id, state.content_hash);
            goneByHash.set(state.content_hash, goneByHash.has(state.content_hash) ? null : id);
          }
          for (const note of notes) applyOne(note);
        });
      } catch (err) {
        // The notes index stands; the start-up reconcile extracts what this batch did not.
        logger.error({ err }, 'links: a batch of the index pass failed');
      }
    },
    end() {
      try {
        links.transaction(() => {
          for (const id of gone.keys()) for (const key of indexer.drop(id)) keys.add(key);
          logger.info({ extracted, removed: gone.size, moved }, 'links extracted in the index pass');
          // Every note the link index knows answers to its names, so links extracted before their
          // target was read in this pass resolve now.
          for (const state of links.states().values()) {
            if (!indexer.names.has(state.note_id)) indexer.names.add({ id: state.note_id, title: state.title, stem: state.stem });
          }
          if (keys.size) indexer.reresolve(keys);
        });
      } catch (err) {
        logger.error({ err }, 'links: finishing the index pass failed');
      } finally {
        keys = new Set();
        gone = new Map();
        goneByHash = new Map();
        if (moved) onMoved();
        moved = 0;
        extracted = 0;
      }
    },
  };
}
