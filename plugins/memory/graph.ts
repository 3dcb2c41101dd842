/**
 * Seed 002's link graph (US-005, US-006): only `[[id__X|text]]` / `[[id__X]]` links count.
 * With the links plugin loaded, its index answers (no file is read per call, and its rename
 * rule is seed 002's); without it, the graph is computed from the shared parser over every
 * entry, which is O(entries) per call, as the seed accepted.
 */
import type { Note } from '../../kernel/note.js';
import type { NoteService } from '../../kernel/notes.js';
import type { ToolContext } from '../../kernel/tool.js';
import { scanMarkdown } from '../../toolkit/markdown/index.js';
import { LINK_INDEX, type LinkIndexService, type LinkRef } from '../links/service.js';
import { isIdToken } from './entry-id.js';
import { outboundLinks, type OutboundLink } from './view.js';

export interface EntryLinks {
  inbound: Array<{ id: string; title: string }>;
  outbound: OutboundLink[];
}

export interface MemoryGraph {
  links(id: string): Promise<EntryLinks>;
  orphans(): Promise<string[]>;
  brokenLinks(): Promise<Array<{ sourceId: string; targetId: string }>>;
  /** Seed 002's rename rule: display text equal to the old title becomes the new title. Returns links changed. */
  rewriteInbound(id: string, oldTitle: string, newTitle: string): Promise<number>;
  /** The same rewrites, planned and not written: each linking note as read, its new text, how many links change. */
  planInbound(id: string, oldTitle: string, newTitle: string): Promise<InboundRewrite[]>;
  /** Ids of the entries holding an `[[id…]]` link to `id` (existing or not), itself included if it links to itself. */
  referrers(id: string): Promise<string[]>;
}

export interface InboundRewrite {
  note: Note;
  content: string;
  links: number;
}

export function memoryGraph(ctx: Pick<ToolContext, 'notes' | 'tryResolve'>): MemoryGraph {
  const index = ctx.tryResolve(LINK_INDEX);
  return index ? indexedGraph(ctx.notes, index) : scannedGraph(ctx.notes);
}

/** The identity of a display text: case, spacing and Unicode form do not matter (as in links). */
export function sameText(a: string, b: string): boolean {
  const key = (t: string) => t.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
  return key(a) === key(b);
}

function idLinks(refs: readonly LinkRef[]): LinkRef[] {
  return refs.filter((r) => isIdToken(r.target_title));
}

function indexedGraph(notes: NoteService, index: LinkIndexService): MemoryGraph {
  const titles = async () => new Map((await notes.list()).map((n) => [n.id, n.title]));
  return {
    async links(id) {
      // Outbound links from the file itself: the index keeps lines, not the offsets a link's position needs.
      const outbound = outboundLinks((await notes.require(id)).content);
      const sources = [...new Set(idLinks(await index.incoming(id)).map((r) => r.source_note_id))].filter(
        (s) => s !== id,
      );
      const known = await titles();
      return { inbound: sources.sort().map((s) => ({ id: s, title: known.get(s) ?? s })), outbound };
    },
    async orphans() {
      const out: string[] = [];
      for (const id of (await titles()).keys()) {
        if (!idLinks(await index.incoming(id)).some((r) => r.source_note_id !== id)) out.push(id);
      }
      return out.sort();
    },
    async brokenLinks() {
      return idLinks(await index.broken()).map((r) => ({ sourceId: r.source_note_id, targetId: r.target_title }));
    },
    async rewriteInbound(id, oldTitle, newTitle) {
      return (await index.rewriteAfterRename(id, oldTitle, newTitle)).links_updated;
    },
    async planInbound(id, oldTitle, newTitle) {
      return (await index.planRename(id, oldTitle, newTitle)).rewrites.map((r) => ({
        note: r.note,
        content: r.content,
        links: r.edits.length,
      }));
    },
    async referrers(id) {
      // Links to an entry that exists resolve to it; links to one that does not are broken links naming it.
      const resolved = (await notes.get(id)) ? idLinks(await index.incoming(id)) : [];
      const broken = idLinks(await index.broken()).filter((r) => r.target_title === id);
      return [...new Set([...resolved, ...broken].map((r) => r.source_note_id))].sort();
    },
  };
}

function scannedGraph(notes: NoteService): MemoryGraph {
  const entries = async () => {
    const out: Array<{ id: string; title: string; links: OutboundLink[] }> = [];
    for (const summary of await notes.list({ orderBy: 'title', direction: 'asc' })) {
      const note = await notes.get(summary.id);
      if (note) out.push({ id: note.id, title: note.title, links: outboundLinks(note.content) });
    }
    return out;
  };
  return {
    async links(id) {
      const note = await notes.require(id);
      const inbound = (await entries())
        .filter((e) => e.id !== id && e.links.some((l) => l.id === id))
        .map((e) => ({ id: e.id, title: e.title }));
      return { inbound: inbound.sort((a, b) => (a.id < b.id ? -1 : 1)), outbound: outboundLinks(note.content) };
    },
    async orphans() {
      const all = await entries();
      const linked = new Set(all.flatMap((e) => e.links.filter((l) => l.id !== e.id).map((l) => l.id)));
      return all
        .map((e) => e.id)
        .filter((id) => !linked.has(id))
        .sort();
    },
    async brokenLinks() {
      const all = await entries();
      const ids = new Set(all.map((e) => e.id));
      return all.flatMap((e) => e.links.filter((l) => !ids.has(l.id)).map((l) => ({ sourceId: e.id, targetId: l.id })));
    },
    async planInbound(id, oldTitle, newTitle) {
      const out: InboundRewrite[] = [];
      for (const entry of await entries()) {
        if (entry.id === id || !entry.links.some((l) => l.id === id)) continue;
        const note = await notes.require(entry.id);
        const { text, changed } = rewriteDisplayText(note.content, id, oldTitle, newTitle);
        if (changed) out.push({ note, content: text, links: changed });
      }
      return out;
    },
    async referrers(id) {
      return (await entries()).filter((e) => e.links.some((l) => l.id === id)).map((e) => e.id);
    },
    async rewriteInbound(id, oldTitle, newTitle) {
      let count = 0;
      for (const entry of await entries()) {
        if (entry.id === id || !entry.links.some((l) => l.id === id)) continue;
        const note = await notes.require(entry.id);
        const { text, changed } = rewriteDisplayText(note.content, id, oldTitle, newTitle);
        if (changed === 0) continue;
        await notes.update(note.id, { content: text }, note.contentHash);
        count += changed;
      }
      return count;
    },
  };
}

/** `[[id|Old Title]]` → `[[id|New Title]]`; custom display text and `[[id]]` stay as written. */
export function rewriteDisplayText(
  text: string,
  id: string,
  oldTitle: string,
  newTitle: string,
): { text: string; changed: number } {
  const display = newTitle.replace(/\|/g, '-').replace(/\]\]/g, '] ]');
  let out = '';
  let at = 0;
  let changed = 0;
  for (const link of scanMarkdownLinks(text)) {
    if (link.idRef !== id || link.alias === null || !sameText(link.alias, oldTitle)) continue;
    out += text.slice(at, link.start) + `${link.kind === 'embed' ? '!' : ''}[[${id}|${display}]]`;
    at = link.end;
    changed++;
  }
  return { text: out + text.slice(at), changed };
}

function scanMarkdownLinks(text: string) {
  return scanMarkdown(text, { tags: false }).links.filter((l) => l.kind !== 'markdown');
}
