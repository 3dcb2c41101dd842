/**
 * The links service other plugins reach through LINKS: the notes plugin asks it to rewrite
 * inbound links after a rename and to list incoming links before a delete; analyze_note asks
 * for a note's broken links. The links plugin provides it; without that plugin, callers skip it.
 */
import { token } from '../../kernel/container.js';

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

export interface LinksService {
  /** Rewrites `[[oldTitle]]` / `[[oldTitle|alias]]` in every note linking to `noteId` (alias kept). */
  rewriteAfterRename(noteId: string, oldTitle: string, newTitle: string): Promise<LinkRewriteReport>;
  /** Links pointing at `noteId`. */
  incoming(noteId: string): Promise<LinkRef[]>;
  /** Links out of `noteId` whose target does not exist. */
  brokenFrom(noteId: string): Promise<LinkRef[]>;
}

export const LINKS = token<LinksService>('links.service');
