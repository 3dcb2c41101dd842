/**
 * The one way links get rewritten in notes (rename, links_repair): visit the linking notes the
 * index names (never every file), re-scan each note's *current* text, let a rule decide each
 * link's new text, and write through NoteService.update with the hash just read — so a note
 * that changed in between fails its compare-and-swap and is reported, never clobbered.
 */
import { ContentHashMismatchError, toNotekernelError } from '../../kernel/errors.js';
import type { Note } from '../../kernel/note.js';
import type { NoteService } from '../../kernel/notes.js';
import { scanMarkdown, type NoteLink } from './parser/index.js';

/** Decides a link's replacement text (the whole `[[...]]`, or a markdown link's destination), or null to keep it. */
export type RewriteRule = (link: NoteLink, sourceId: string) => { text: string; destinationOnly?: boolean } | null;

export interface LinkEdit {
  note_id: string;
  line_number: number;
  before: string;
  after: string;
}

export interface RewriteOutcome {
  edits: LinkEdit[];
  links_updated: number;
  notes_updated: number;
  not_rewritten: Array<{ id: string; reason: string }>;
}

export interface RewriteDeps {
  notes: NoteService;
  /** Brings the index up to date with a note this rewrite just wrote (before the answer is sent). */
  reindex(note: Note): Promise<void>;
}

const CONCURRENCY = 32;

export async function rewriteNotes(sourceIds: Iterable<string>, rule: RewriteRule, deps: RewriteDeps, dryRun: boolean): Promise<RewriteOutcome> {
  const outcome: RewriteOutcome = { edits: [], links_updated: 0, notes_updated: 0, not_rewritten: [] };
  const queue = [...new Set(sourceIds)].sort();
  const perNote = new Map<string, LinkEdit[]>();
  const worker = async (): Promise<void> => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const result = await rewriteOne(id, rule, deps, dryRun);
      if ('reason' in result) outcome.not_rewritten.push({ id, reason: result.reason });
      else if (result.edits.length) {
        perNote.set(id, result.edits);
        outcome.links_updated += result.edits.length;
        outcome.notes_updated++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  for (const id of [...perNote.keys()].sort()) outcome.edits.push(...(perNote.get(id) as LinkEdit[]));
  outcome.not_rewritten.sort((a, b) => (a.id < b.id ? -1 : 1));
  return outcome;
}

async function rewriteOne(id: string, rule: RewriteRule, deps: RewriteDeps, dryRun: boolean): Promise<{ edits: LinkEdit[] } | { reason: string }> {
  let note: Note | undefined;
  try {
    note = await deps.notes.get(id);
  } catch (err) {
    return { reason: `unreadable: ${toNotekernelError(err).message}` };
  }
  if (!note) return { reason: 'the linking note no longer exists' };
  const replacements: Array<{ start: number; end: number; text: string }> = [];
  const edits: LinkEdit[] = [];
  for (const link of scanMarkdown(note.content, { tags: false }).links) {
    const decision = rule(link, id);
    if (!decision) continue;
    const start = decision.destinationOnly && link.destination ? link.destination.start : link.start;
    const end = decision.destinationOnly && link.destination ? link.destination.end : link.end;
    if (note.content.slice(start, end) === decision.text) continue;
    replacements.push({ start, end, text: decision.text });
    const after = note.content.slice(link.start, start) + decision.text + note.content.slice(end, link.end);
    edits.push({ note_id: id, line_number: link.line, before: link.raw, after });
  }
  if (!replacements.length || dryRun) return { edits };
  const content = applyReplacements(note.content, replacements);
  try {
    const updated = await deps.notes.update(id, { content }, note.contentHash);
    await deps.reindex(updated);
  } catch (err) {
    if (err instanceof ContentHashMismatchError) {
      return { reason: 'changed while its links were being rewritten (content_hash_mismatch); its links still resolve by id: run links_repair' };
    }
    return { reason: `${toNotekernelError(err).code}: ${toNotekernelError(err).message}` };
  }
  return { edits };
}

export function applyReplacements(text: string, replacements: ReadonlyArray<{ start: number; end: number; text: string }>): string {
  let out = '';
  let at = 0;
  for (const r of [...replacements].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, r.start) + r.text;
    at = r.end;
  }
  return out + text.slice(at);
}

/** Characters a wikilink target cannot hold: they would end or split the link. */
export function linkSafe(name: string): boolean {
  return name.trim() !== '' && !/[[\]|#^\n\r]/.test(name) && !name.startsWith('id__');
}

/** A wikilink with a new target and alias, keeping embed, heading/block and an escaped pipe. */
export function formatWikilink(link: NoteLink, target: string, alias: string | null): string {
  const anchor = link.heading !== null ? `#${link.heading}` : link.block !== null ? `#^${link.block}` : '';
  const pipe = link.escapedPipe ? '\\|' : '|';
  return `${link.kind === 'embed' ? '!' : ''}[[${target}${anchor}${alias !== null ? pipe + alias : ''}]]`;
}
