/**
 * LinkStore in memory, for backends without `index-db`: the same rows and orderings as the
 * SQLite tables, indexed by source, target and key. Rebuilt by the start-up reconcile in each
 * process (nothing is persisted, so every note counts as changed at start).
 */
import {
  sqlTimestamp,
  type ExternalRecord,
  type LinkRecord,
  type LinkStore,
  type MoveRecord,
  type NoteState,
} from './types.js';

export function createMemoryLinkStore(): LinkStore {
  let nextLink = 1;
  let nextExternal = 1;
  let nextMove = 1;
  const links = new Map<number, LinkRecord>();
  const bySource = new Map<string, Set<number>>();
  const byTarget = new Map<string, Set<number>>();
  const byKey = new Map<string, Set<number>>();
  const externals = new Map<string, ExternalRecord[]>();
  const states = new Map<string, NoteState>();
  const formers = new Map<string, string>();
  const moves: MoveRecord[] = [];
  const meta = new Map<string, string>();

  const index = (map: Map<string, Set<number>>, key: string | null, id: number, add: boolean): void => {
    if (key === null) return;
    let set = map.get(key);
    if (add) {
      if (!set) map.set(key, (set = new Set()));
      set.add(id);
    } else if (set) {
      set.delete(id);
      if (set.size === 0) map.delete(key);
    }
  };
  const rows = (ids: Iterable<number> | undefined): LinkRecord[] =>
    [...(ids ?? [])].map((id) => links.get(id) as LinkRecord);
  const deleteOutgoing = (noteId: string): void => {
    for (const id of [...(bySource.get(noteId) ?? [])]) {
      const row = links.get(id) as LinkRecord;
      index(byTarget, row.target_note_id, id, false);
      index(byKey, row.target_key, id, false);
      links.delete(id);
    }
    bySource.delete(noteId);
    externals.delete(noteId);
  };
  const byLine = (a: LinkRecord, b: LinkRecord): number =>
    a.line_number - b.line_number || a.start_offset - b.start_offset;

  return {
    kind: 'memory',
    transaction: (fn) => fn(),
    states: () => new Map(states),
    state: (noteId) => states.get(noteId),
    statesByHash: (hash) => [...states.values()].filter((s) => s.content_hash === hash),
    replaceNote(state, inputs, exts) {
      deleteOutgoing(state.note_id);
      const created = sqlTimestamp();
      for (const input of inputs) {
        const row: LinkRecord = { ...input, id: nextLink++, source_note_id: state.note_id, created };
        links.set(row.id, row);
        index(bySource, row.source_note_id, row.id, true);
        index(byTarget, row.target_note_id, row.id, true);
        index(byKey, row.target_key, row.id, true);
      }
      externals.set(
        state.note_id,
        exts.map((e) => ({ ...e, id: nextExternal++, note_id: state.note_id, created })),
      );
      states.set(state.note_id, { ...state });
    },
    removeNote(noteId) {
      deleteOutgoing(noteId);
      states.delete(noteId);
    },
    renameNote(fromId, toId) {
      for (const id of bySource.get(fromId) ?? []) (links.get(id) as LinkRecord).source_note_id = toId;
      if (bySource.has(fromId)) bySource.set(toId, bySource.get(fromId) as Set<number>);
      bySource.delete(fromId);
      for (const id of [...(byTarget.get(fromId) ?? [])]) {
        (links.get(id) as LinkRecord).target_note_id = toId;
        index(byTarget, fromId, id, false);
        index(byTarget, toId, id, true);
      }
      const ext = externals.get(fromId);
      externals.delete(fromId);
      if (ext)
        externals.set(
          toId,
          ext.map((e) => ({ ...e, note_id: toId })),
        );
      const state = states.get(fromId);
      states.delete(fromId);
      if (state) states.set(toId, { ...state, note_id: toId });
      for (const [key, holder] of formers) if (holder === fromId) formers.set(key, toId);
    },
    outgoing: (noteId) => rows(bySource.get(noteId)).sort(byLine),
    incoming: (noteId) => rows(byTarget.get(noteId)).sort((a, b) => b.created.localeCompare(a.created) || b.id - a.id),
    externals: (noteId) =>
      [...(externals.get(noteId) ?? [])].sort((a, b) => a.line_number - b.line_number || a.id - b.id),
    broken: () =>
      [...links.values()]
        .filter((l) => l.target_note_id === null)
        .sort((a, b) =>
          a.source_note_id < b.source_note_id ? -1 : a.source_note_id > b.source_note_id ? 1 : byLine(a, b),
        ),
    byKeys: (keys) => keys.flatMap((key) => rows(byKey.get(key))),
    openLinks: () =>
      [...links.values()].filter(
        (l) => l.resolved_by === null || l.resolved_by === 'stem' || l.resolved_by === 'former',
      ),
    retarget(updates) {
      for (const u of updates) {
        const row = links.get(u.id);
        if (!row) continue;
        index(byTarget, row.target_note_id, row.id, false);
        row.target_note_id = u.target;
        row.resolved_by = u.by;
        index(byTarget, row.target_note_id, row.id, true);
      }
    },
    edges() {
      const seen = new Set<string>();
      const out: Array<{ source: string; target: string }> = [];
      for (const l of links.values()) {
        if (l.target_note_id === null) continue;
        const key = `${l.source_note_id}\u0000${l.target_note_id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ source: l.source_note_id, target: l.target_note_id });
      }
      return out;
    },
    externalUrls: () => [...externals.values()].flat().map((e) => ({ note_id: e.note_id, url: e.url })),
    counts: () => ({
      links: links.size,
      externals: [...externals.values()].reduce((n, list) => n + list.length, 0),
      notes: states.size,
    }),
    clear() {
      for (const id of [...states.keys()]) deleteOutgoing(id);
      states.clear();
      meta.clear();
    },
    meta: (key) => meta.get(key),
    setMeta(key, value) {
      if (value === null) meta.delete(key);
      else meta.set(key, value);
    },
    formers: () => new Map(formers),
    setFormer: (key, noteId) => void formers.set(key, noteId),
    dropFormersFor(noteId) {
      for (const [key, holder] of formers) if (holder === noteId) formers.delete(key);
    },
    dropAllFormers: () => formers.clear(),
    recordMove(move) {
      moves.push({ ...move, id: nextMove++, detected_at: sqlTimestamp(), repaired_at: null });
    },
    moves: (options = {}) => moves.filter((m) => !options.pending || m.repaired_at === null).map((m) => ({ ...m })),
    markRepaired(ids) {
      const at = sqlTimestamp();
      for (const m of moves) if (ids.includes(m.id)) m.repaired_at = at;
    },
  };
}
