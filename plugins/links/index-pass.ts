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
import { PASS_UNRESOLVED, PASS_WHOLE } from './reconcile.js';

export function linksIndexPass(indexer: LinkIndexer, logger: Logger, onMoved: () => void): IndexPassObserver {
  const links = indexer.links;
  /** Keys whose stored links may resolve differently once this pass's names are all known. */
  let keys = new Set<string>();
  /** Keys of links this pass extracted that a later name could still claim (ApplyResult.linkKeys). */
  let open = new Set<string>();
  /** Names new in this pass; when the index held no link before it, only `open` keys can be stored under them. */
  let named = new Set<string>();
  let hadLinks: boolean | undefined;
  /** A first build into empty link tables: filled without their secondary indexes (built again at its end). */
  let bulk = false;
  /** The link index still carried the marker of a pass killed before its end. */
  let inherited = false;
  /** A batch failed: the start-up reconcile must compare every note. */
  let failed = false;
  /** Ids gone in this pass, and the unique content hash of each (null: two gone notes shared it). */
  let gone = new Map<string, string>();
  let goneByHash = new Map<string, string | null>();
  let moved = 0;
  let extracted = 0;
  let spentMs = 0;

  const applyOne = (note: Note): void => {
    // Only a pass that dropped notes can see one again under a new id (no lookup otherwise).
    const twin = goneByHash.size && !links.state(note.id) ? goneByHash.get(note.contentHash) : undefined;
    if (twin) {
      goneByHash.delete(note.contentHash);
      gone.delete(twin);
      for (const key of indexer.move(twin, note, 'content_hash')) keys.add(key);
      logger.info(
        { from: twin, to: note.id },
        'note moved outside the server; links_repair rewrites its inbound links',
      );
      moved++;
      return;
    }
    const result = indexer.apply(note);
    if (result.changed) extracted++;
    // A first build re-resolves every open link at its end (one scan): no keys to remember.
    if (bulk) return;
    for (const key of result.keys) (hadLinks ? keys : named).add(key);
    for (const key of result.linkKeys) open.add(key);
  };

  return {
    begin({ first }) {
      // A first build of the vault into empty link tables.
      bulk = first && links.counts().notes === 0;
      if (bulk) links.secondaryIndexes?.drop();
    },
    batch(notes, removed) {
      const started = performance.now();
      try {
        // A first build re-resolves only keys both named in this pass and left open by a link:
        // re-reading every new name's links cost more than extracting them.
        if (hadLinks === undefined) {
          hadLinks = links.counts().links > 0;
          inherited = links.meta(PASS_UNRESOLVED) !== undefined;
          // Names notes gave up (kept beside the index, so they survive a lost one) resolve the
          // links extracted below; the start-up reconcile, which loads them otherwise, comes later.
          for (const [key, id] of links.formers()) indexer.names.setFormer(key, id);
          // Links extracted below resolve against every note the index knows, not only this pass's.
          if (hadLinks)
            for (const state of links.states().values())
              if (!indexer.names.has(state.note_id))
                indexer.names.add({ id: state.note_id, title: state.title, stem: state.stem });
        }
        links.transaction(() => {
          if (links.meta(PASS_UNRESOLVED) === undefined) links.setMeta(PASS_UNRESOLVED, '1');
          if (links.meta(PASS_WHOLE) !== undefined) links.setMeta(PASS_WHOLE, null);
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
        failed = true;
        logger.error({ err }, 'links: a batch of the index pass failed');
      } finally {
        spentMs += performance.now() - started;
      }
    },
    end(complete) {
      const started = performance.now();
      try {
        if (bulk) {
          // Every link is new and every note was named in this pass: the links it could still
          // resolve differently are the open ones, found by one scan before the indexes exist
          // (each retarget would otherwise update them too).
          try {
            links.transaction(() => {
              indexer.reresolveRows(links.openLinks());
              links.setMeta(PASS_UNRESOLVED, null);
              if (complete && !failed) links.setMeta(PASS_WHOLE, '1');
            });
          } finally {
            links.secondaryIndexes?.create();
          }
          logger.info(
            { extracted, ms: Math.round(spentMs + performance.now() - started) },
            'links extracted in the first index pass',
          );
          return;
        }
        links.transaction(() => {
          for (const id of gone.keys()) for (const key of indexer.drop(id)) keys.add(key);
          // Every note the link index knows answers to its names, so links extracted before their
          // target was read in this pass resolve now.
          for (const state of links.states().values()) {
            if (!indexer.names.has(state.note_id))
              indexer.names.add({ id: state.note_id, title: state.title, stem: state.stem });
          }
          for (const key of named) if (open.has(key)) keys.add(key);
          if (hadLinks) for (const key of open) keys.add(key);
          if (keys.size) indexer.reresolve(keys);
          // A pass killed before its end left links resolved against the names it had read: this
          // pass clears its marker, so it re-resolves them all, as the reconcile would have.
          if (inherited) indexer.reresolveRows(links.openLinks());
          links.setMeta(PASS_UNRESOLVED, null);
        });
        logger.info(
          { extracted, removed: gone.size, moved, ms: Math.round(spentMs + performance.now() - started) },
          'links extracted in the index pass',
        );
      } catch (err) {
        logger.error({ err }, 'links: finishing the index pass failed');
      } finally {
        keys = new Set();
        open = new Set();
        named = new Set();
        hadLinks = undefined;
        bulk = false;
        failed = false;
        inherited = false;
        gone = new Map();
        goneByHash = new Map();
        if (moved) onMoved();
        moved = 0;
        extracted = 0;
        spentMs = 0;
      }
    },
  };
}
