/**
 * The links service other plugins reach through LINKS: the notes plugin asks it to rewrite
 * inbound links after a rename and to list incoming links before a delete; analyze_note asks
 * for a note's broken links. The links plugin provides it; without that plugin, callers skip it.
 */
import { token } from '../../kernel/container.js';
import type { PlannedRewrite } from './rewrite.js';

export interface LinkRef {
  /** The linking note. */
  source_note_id: string;
  /** The linked note, or null when the link is broken. */
  target_note_id: string | null;
  /** The text inside [[...]] (before any `|`). */
  target_title: string;
  /** Display text of [[target|display]], else null. */
  link_text: string | null;
  line_number: number;
}

export interface LinkRewriteReport {
  /** Links whose text was rewritten. */
  links_updated: number;
  /** Notes that were rewritten. */
  notes_updated: number;
  /** Linking notes that could not be rewritten (changed meanwhile, unreadable, ...), with why. */
  not_rewritten: Array<{ id: string; reason: string }>;
}

/** What a rename would change in the notes linking to the renamed one; nothing is written. */
export interface RenamePlan {
  rewrites: PlannedRewrite[];
  not_rewritten: Array<{ id: string; reason: string }>;
}

export interface LinksService {
  /**
   * The link rewrites a rename of `noteId` to `newTitle` needs, planned before anything changes
   * so the rename and its rewrites can run as one journalled operation.
   */
  planRename(noteId: string, oldTitle: string, newTitle: string): Promise<RenamePlan>;
  /** Rewrites `[[oldTitle]]` / `[[oldTitle|alias]]` in every note linking to `noteId` (alias kept). */
  rewriteAfterRename(noteId: string, oldTitle: string, newTitle: string): Promise<LinkRewriteReport>;
  /** Links pointing at `noteId`. */
  incoming(noteId: string): Promise<LinkRef[]>;
  /** Links out of `noteId` whose target does not exist. */
  brokenFrom(noteId: string): Promise<LinkRef[]>;
}

export const LINKS = token<LinksService>('links.service');

/** A note within N hops of another, in either direction. */
export interface LinkGraphNode {
  id: string;
  title: string;
  /** Hops from the centre (0 for the centre itself). */
  distance: number;
}

export interface LinkGraphEdge {
  source: string;
  target: string;
  /** How many links the source holds to the target. */
  count: number;
}

export interface LinkGraph {
  center: string;
  depth: number;
  nodes: LinkGraphNode[];
  edges: LinkGraphEdge[];
  /** True when the node cap cut the neighbourhood short. */
  truncated: boolean;
}

/** A name change made outside the tools, as the index saw it (see links_repair). */
export interface MovedNote {
  from_id: string;
  to_id: string;
  from_name: string;
  to_name: string;
  how: 'content_hash' | 'same_id' | 'retitled';
  detected_at: string;
  repaired_at: string | null;
}

export interface LinkRepairReport extends LinkRewriteReport {
  dry_run: boolean;
  /** Moves and renames made outside the tools that are not repaired yet (or were by this call). */
  moves: MovedNote[];
  /** Each link rewritten (or, in a dry run, that would be), with its line. */
  edits: Array<{ note_id: string; line_number: number; before: string; after: string }>;
  /** The journal entry of the rewrites (undo_operation takes it back), where the store keeps a journal. */
  operation_id?: string;
}

/**
 * The richer link index other plugins may use (obsidian-tools' find_backlinks/find_outlinks,
 * memory's links/orphans/broken, search's link filters). Provided beside LINKS by the links plugin.
 */
export interface LinkIndexService extends LinksService {
  /** Links out of `noteId`, resolved or not, in document order. */
  outgoing(noteId: string): Promise<LinkRef[]>;
  /** Every broken link in the vault. */
  broken(): Promise<LinkRef[]>;
  /** Notes no other note links to. */
  orphans(): Promise<Array<{ id: string; title: string }>>;
  /** The neighbourhood of `noteId` up to `depth` hops. */
  graph(
    noteId: string,
    options?: { depth?: number; direction?: 'both' | 'out' | 'in'; limit?: number },
  ): Promise<LinkGraph>;
  /** The note a link target (title, filename, path or id__ reference) names now, if any. */
  resolve(target: string): Promise<string | null>;
  /** Notes whose title equals `title` (case- and space-insensitive): a rename's conflict check. */
  titleOwners(title: string): Promise<string[]>;
  /** Rewrites links that resolve only through a note's former name; `dryRun` lists the edits. */
  repair(options: { dryRun: boolean; noteId?: string }): Promise<LinkRepairReport>;
  /**
   * Catches up with the store (re-reads only notes whose content hash changed, drops vanished
   * ones, detects moves by content hash). A file watcher or `store.refresh()` caller runs it.
   */
  reconcile(): Promise<LinkReconcileReport>;
}

export interface LinkReconcileReport {
  scanned: number;
  extracted: number;
  removed: number;
  moved: Array<{ from: string; to: string; how: 'content_hash' | 'same_id' }>;
  retitled: Array<{ id: string; from: string; to: string }>;
  unreadable: string[];
  /** False when the vault closed before every changed note was read (the next start goes on). */
  complete: boolean;
  ms: number;
}

export const LINK_INDEX = token<LinkIndexService>('links.index');
