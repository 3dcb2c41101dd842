/**
 * The two rewrite rules. Rename (seed 000 rename_note, seed 002 US-005): `[[Old Title]]`,
 * `[[Old Title|alias]]`, `[[Old Title#H]]`, `![[Old Title]]` → the new title, alias kept; display
 * text is changed only where it equalled the old title, and `[[id__X|Old Title]]` gets the new
 * display text. Repair: a link that still resolves only because of a name its note gave up (a
 * former title, stem or path, left by a rename or a move outside the tools) is rewritten to
 * the note's current name of the same kind, in the same style.
 */
import path from 'node:path';
import { keysOf, nameKey, type NameIndex, type NoteNames } from './names.js';
import type { NoteLink } from '../../toolkit/markdown/index.js';
import { formatWikilink, linkSafe, type RewriteRule } from './rewrite.js';

export function renameRule(names: NameIndex, noteId: string, oldTitle: string, newTitle: string): RewriteRule {
  const oldKey = nameKey(oldTitle);
  return (link, sourceId) => {
    if (link.kind === 'markdown') return null;
    if (link.idRef) {
      if (
        names.resolveKey(`id:${link.idRef}`).target !== noteId ||
        link.alias === null ||
        nameKey(link.alias) !== oldKey
      )
        return null;
      return { text: formatWikilink(link, link.target, newTitle) };
    }
    const key = names.keyFor(link, sourceId);
    // Another note may still answer to the old title: its links are not ours to move.
    if (key !== oldKey || names.resolveKey(key).target !== noteId) return null;
    const current = names.get(noteId);
    // Planned before the title changes: the fallback is what safeName gives once it has.
    const target = linkSafe(newTitle) ? newTitle : current ? safeName({ ...current, title: newTitle }) : null;
    if (target === null) return null;
    let alias = link.alias !== null && nameKey(link.alias) === oldKey ? displayText(newTitle) : link.alias;
    // A title no wikilink can hold: link by the stem, and show the title.
    if (alias === null && target !== newTitle) alias = displayText(newTitle);
    return { text: formatWikilink(link, target, alias) };
  };
}

export type FormerKind = 't' | 's' | 'p';

/** Why a link's key is stale for its target: the former-name kind, or null when it is current. */
export function staleKind(names: NameIndex, key: string, target: string): FormerKind | null {
  const current = names.get(target);
  if (!current) return null;
  const now = keysOf(current);
  const former = names.formerNames();
  if (key.startsWith('md:')) {
    const p = key.slice(3);
    return former.get(`p:${p}`) === target && now.path !== p ? 'p' : null;
  }
  if (former.get(`t:${key}`) === target && now.title !== key) return 't';
  if (former.get(`s:${key}`) === target && now.stem !== key && now.title !== key) return 's';
  if (former.get(`p:${key}`) === target && now.path !== key) return 'p';
  return null;
}

export function repairRule(names: NameIndex, onlyTarget?: string): RewriteRule {
  return (link, sourceId) => {
    if (link.idRef) return null;
    const key = names.keyFor(link, sourceId);
    const target = names.resolveKey(key).target;
    if (target === null || (onlyTarget !== undefined && target !== onlyTarget)) return null;
    const kind = staleKind(names, key, target);
    const current = names.get(target);
    if (!kind || !current) return null;
    if (link.kind === 'markdown') return { text: markdownDestination(link, sourceId, current), destinationOnly: true };
    const next =
      kind === 'p'
        ? pathName(link, current)
        : kind === 's' && linkSafe(current.stem)
          ? current.stem
          : safeName(current);
    const alias = link.alias !== null && nameKey(link.alias) === key ? displayText(next) : link.alias;
    return { text: formatWikilink(link, next, alias) };
  };
}

/** The source notes whose links resolve through a former name (index-driven: no file scan). */
export function staleSources(
  names: NameIndex,
  byKeys: (keys: string[]) => Array<{ source_note_id: string; target_note_id: string | null; target_key: string }>,
  onlyTarget?: string,
): string[] {
  const keys: string[] = [];
  for (const [formerKey, holder] of names.formerNames()) {
    if (onlyTarget !== undefined && holder !== onlyTarget) continue;
    const key = formerKey.slice(2);
    keys.push(key);
    if (formerKey.startsWith('p:')) keys.push(`md:${key}`);
  }
  const sources = new Set<string>();
  for (let i = 0; i < keys.length; i += 400) {
    for (const row of byKeys(keys.slice(i, i + 400))) {
      if (row.target_note_id !== null && staleKind(names, row.target_key, row.target_note_id))
        sources.add(row.source_note_id);
    }
  }
  return [...sources];
}

function safeName(names: NoteNames): string {
  if (linkSafe(names.title)) return names.title;
  if (linkSafe(names.stem)) return names.stem;
  return names.id.replace(/\.md$/i, '');
}

function pathName(link: NoteLink, current: NoteNames): string {
  return /\.md$/i.test(link.target) ? current.id : current.id.replace(/\.md$/i, '');
}

/** A relative destination from the linking note's folder, in the link's own style (<...> or %20). */
function markdownDestination(link: NoteLink, sourceId: string, current: NoteNames): string {
  const relative = path.posix.relative(path.posix.dirname(sourceId), current.id) || current.id;
  const fragment = link.heading !== null ? `#${link.heading}` : '';
  const raw = link.destination
    ? link.raw.slice(link.destination.start - link.start, link.destination.end - link.start)
    : '';
  if (raw.startsWith('<')) return `<${relative}${fragment}>`;
  return encodeURI(relative) + (fragment ? `#${encodeURIComponent(link.heading as string)}` : '');
}

/** Display text cannot hold brackets (they would end the link) or a pipe. */
function displayText(text: string): string {
  return text
    .replace(/\|/g, '-')
    .replace(/\[/g, '(')
    .replace(/\]/g, ')')
    .replace(/[\n\r]+/g, ' ');
}
