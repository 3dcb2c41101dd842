/**
 * Start-up (and on-demand) catch-up: compare what the store lists (with each note's content
 * hash) against the hashes the links were extracted from, re-read only notes that changed,
 * drop notes that are gone, and recognise a note that vanished under one id and appeared under
 * another with the same bytes as a move made outside the server. An unchanged vault costs one
 * `list()` and one read of the state table, no file reads.
 */
import { createHash } from 'node:crypto';
import type { NoteStore } from '../../kernel/backend.js';
import type { Logger } from '../../kernel/logger.js';
import type { Note, NoteSummary } from '../../kernel/note.js';
import { locationOf } from '../../toolkit/note-location.js';
import type { LinkIndexer } from './indexer.js';
import { stemOf, type NoteNames } from './names.js';
import type { LinkReconcileReport } from './service.js';
import type { LinkStore, NoteState } from './store/types.js';

/** `unreadable`: listed notes that could not be read (their links are dropped until they can). */
export type ReconcileReport = LinkReconcileReport;

const READ_BATCH = 64;
const FINGERPRINT = 'snapshot_fingerprint';
/** The store's own snapshot token (NoteStore.snapshotToken) at the last complete reconcile. */
const STORE_TOKEN = 'store_token';
/** Set while a reconcile extracts: its link index is then a part-built one, not an earlier whole. */
const PARTIAL = 'reconcile_partial';
/**
 * Set by the store's index pass from its first batch until its closing re-resolution: a pass
 * killed between them leaves links resolved against the names read so far, which the next
 * reconcile re-resolves (every open link) although no note changed.
 */
export const PASS_UNRESOLVED = 'index_pass_unresolved';
/**
 * Set by a first build's index pass that extracted every note it indexed (no batch failed): the
 * link index then holds exactly the store's notes, and the reconcile after it records the
 * store's token instead of listing every note to find nothing to do. Any later pass clears it.
 */
export const PASS_WHOLE = 'index_pass_whole';
/** Stands for the fingerprint of a reconcile that trusted a whole pass: equal to no real one. */
const FROM_PASS = 'index-pass';

/**
 * Whether the link index is a whole earlier state worth answering from before the start-up
 * reconcile (decision 026): it holds notes, and no reconcile was cut short while filling it.
 * (The store's index pass builds links batch by batch with the notes; the store itself says
 * whether those rows may be read, NoteStore.whenReadable.)
 */
export function answersBeforeReconcile(links: LinkIndexer['links']): boolean {
  return links.meta(PARTIAL) === undefined;
}

/** One hash over every note's id, hash, title and filename, in the store's own list order. */
function fingerprintOf(summaries: readonly NoteSummary[]): string {
  const hash = createHash('sha1');
  for (const s of summaries) hash.update(`${s.id}\u0000${s.contentHash}\u0000${s.title}\u0000${s.filename}\u0001`);
  return hash.digest('hex');
}

/**
 * `shouldStop` is asked between read batches: a vault closing mid-way (a one-shot CLI call on a
 * large new vault) stops after the current batch. Every batch is committed with its notes'
 * hashes, so the next start continues where this one stopped.
 */
export async function reconcile(
  indexer: LinkIndexer,
  store: NoteStore,
  logger: Logger,
  shouldStop: () => boolean = () => false,
): Promise<ReconcileReport> {
  const started = performance.now();
  const links = indexer.links;
  // The store says nothing changed since the last complete reconcile: the names come from the
  // link index itself, no listing (at 100,000 notes the listing alone took most of a second).
  const token = await store.snapshotToken?.();
  const unresolved = links.meta(PASS_UNRESOLVED) !== undefined;
  if (!unresolved && token !== undefined && links.meta(PASS_WHOLE) !== undefined) {
    links.transaction(() => {
      links.setMeta(FINGERPRINT, FROM_PASS);
      links.setMeta(STORE_TOKEN, token);
      links.setMeta(PASS_WHOLE, null);
    });
  }
  if (
    !unresolved &&
    token !== undefined &&
    links.meta(STORE_TOKEN) === token &&
    links.meta(FINGERPRINT) !== undefined
  ) {
    indexer.names.rebuildFromNames(() => storedNames(links), links.formers());
    return {
      scanned: links.counts().notes,
      extracted: 0,
      removed: 0,
      moved: [],
      retitled: [],
      unreadable: [],
      complete: true,
      ms: Math.round(performance.now() - started),
    };
  }
  const summaries = await store.list();
  indexer.names.rebuild(summaries, links.formers());
  // Nothing changed since the last reconcile that saw this exact snapshot: skip the state read.
  const fingerprint = fingerprintOf(summaries);
  if (!unresolved && links.meta(FINGERPRINT) === fingerprint) {
    if (token !== undefined) links.setMeta(STORE_TOKEN, token);
    return {
      scanned: summaries.length,
      extracted: 0,
      removed: 0,
      moved: [],
      retitled: [],
      unreadable: [],
      complete: true,
      ms: Math.round(performance.now() - started),
    };
  }
  const states = links.states();
  const current = new Map(summaries.map((s) => [s.id, s]));
  const vanished = [...states.values()].filter((s) => !current.has(s.note_id));
  const fresh = summaries.filter((s) => !states.has(s.id));
  const changed = summaries.filter((s) => {
    const state = states.get(s.id);
    return (
      state !== undefined &&
      (state.content_hash !== s.contentHash || state.title !== s.title || state.stem !== stemOf(locationOf(s).filename))
    );
  });

  const report: ReconcileReport = {
    scanned: summaries.length,
    extracted: 0,
    removed: 0,
    moved: [],
    retitled: [],
    unreadable: [],
    complete: true,
    ms: 0,
  };
  links.setMeta(PARTIAL, '1');
  const keys = new Set<string>();
  const moves = pairByHash(vanished, fresh);
  const movedTo = new Set<string>();
  for (const { from, to } of moves) {
    const note = await readNote(store, to.id, logger);
    if (!note) continue;
    for (const key of links.transaction(() => indexer.move(from.note_id, note, 'content_hash'))) keys.add(key);
    movedTo.add(to.id);
    report.moved.push({ from: from.note_id, to: to.id, how: 'content_hash' });
  }
  links.transaction(() => {
    for (const state of vanished) {
      if (moves.some((m) => m.from === state)) continue;
      for (const key of indexer.drop(state.note_id)) keys.add(key);
      report.removed++;
    }
  });

  const toRead = [...changed, ...fresh.filter((s) => !movedTo.has(s.id))];
  for (let i = 0; i < toRead.length; i += READ_BATCH) {
    if (shouldStop()) {
      report.complete = false;
      break;
    }
    const batch = toRead.slice(i, i + READ_BATCH);
    const notes = await Promise.all(batch.map((s) => readNote(store, s.id, logger)));
    links.transaction(() => {
      batch.forEach((summary, k) => {
        const note = notes[k];
        if (!note) {
          report.unreadable.push(summary.id);
          for (const key of indexer.drop(summary.id)) keys.add(key);
          return;
        }
        const before = states.get(note.id);
        const result = indexer.apply(note);
        for (const key of result.keys) keys.add(key);
        if (!result.changed) return;
        report.extracted++;
        if (before) noteRename(indexer, before, note, report);
      });
    });
  }
  // On a first build every link was resolved against the complete name index already.
  if (states.size > 0 && keys.size > 0) links.transaction(() => indexer.reresolve(keys));
  if (unresolved) links.transaction(() => indexer.reresolveRows(links.openLinks()));
  if (unresolved && report.complete) links.setMeta(PASS_UNRESOLVED, null);
  // Hooks keep the index in step after this; a snapshot that differs later forces a full compare.
  const whole = report.complete && !report.unreadable.length;
  links.setMeta(FINGERPRINT, whole ? fingerprint : null);
  links.setMeta(STORE_TOKEN, whole && token !== undefined ? token : null);
  links.setMeta(PARTIAL, report.complete ? null : '1');
  report.ms = Math.round(performance.now() - started);
  for (const m of report.moved)
    logger.info(
      { from: m.from, to: m.to, how: m.how },
      'note moved outside the server; links_repair rewrites its inbound links',
    );
  for (const r of report.retitled)
    logger.info(
      { id: r.id, from: r.from, to: r.to },
      'note renamed outside the server; links_repair rewrites its inbound links',
    );
  return report;
}

/** Records a title or filename change made outside the tools (same id). */
export function noteRename(
  indexer: LinkIndexer,
  before: NoteState,
  note: Note,
  report?: Pick<ReconcileReport, 'moved' | 'retitled'>,
): void {
  const stem = stemOf(locationOf(note).filename);
  if (before.stem !== stem) {
    indexer.links.recordMove({
      from_id: note.id,
      to_id: note.id,
      from_name: before.stem,
      to_name: stem,
      how: 'same_id',
    });
    report?.moved.push({ from: note.id, to: note.id, how: 'same_id' });
  }
  if (before.title !== note.title) {
    indexer.links.recordMove({
      from_id: note.id,
      to_id: note.id,
      from_name: before.title,
      to_name: note.title,
      how: 'retitled',
    });
    report?.retitled.push({ id: note.id, from: before.title, to: note.title });
  }
}

/** Vanished and fresh notes with the same content hash, where the hash is unique on both sides. */
function pairByHash(
  vanished: readonly NoteState[],
  fresh: readonly NoteSummary[],
): Array<{ from: NoteState; to: NoteSummary }> {
  if (!vanished.length || !fresh.length) return [];
  const gone = groupBy(vanished, (s) => s.content_hash);
  const found = groupBy(fresh, (s) => s.contentHash);
  const pairs: Array<{ from: NoteState; to: NoteSummary }> = [];
  for (const [hash, from] of gone) {
    const to = found.get(hash);
    if (from.length === 1 && to?.length === 1) pairs.push({ from: from[0] as NoteState, to: to[0] as NoteSummary });
  }
  return pairs;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

async function readNote(store: NoteStore, id: string, logger: Logger): Promise<Note | undefined> {
  try {
    return await store.get(id);
  } catch (err) {
    logger.warn({ err, id }, 'links: a listed note could not be read; its links are dropped until it can');
    return undefined;
  }
}

/** The names the link index stored with each note, for NameIndex.rebuildFromNames. */
export function* storedNames(links: Pick<LinkStore, 'states'>): Generator<NoteNames> {
  for (const state of links.states().values()) yield { id: state.note_id, title: state.title, stem: state.stem };
}
