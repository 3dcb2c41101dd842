/**
 * memory_doctor: what is wrong with a memory root, without changing it. Markdown files the
 * store does not list (no `id__` in the name) are "not an entry"; ids carried by two files
 * are listed with both paths; entries without a `# heading` are named. A folder's own
 * documents (README.md, AGENTS.md, CLAUDE.md, LICENSE.md, …: a git repository's usual files,
 * and the AGENTS.md seed 002's phase 3 generates) are listed as `ignored` and leave `ok` true.
 * It refreshes the store first (which may update caches under the metadata folder, never an entry).
 */
import type { VaultFiles } from '../../kernel/backend.js';
import type { NoteService } from '../../kernel/notes.js';
import { locationOf } from '../../toolkit/note-location.js';

export interface DoctorReport {
  entries: number;
  notEntries: Array<{ path: string; reason: string }>;
  /** Ordinary documents beside the entries: not entries, and nothing wrong. */
  ignored: Array<{ path: string; reason: string }>;
  duplicateIds: Array<{ id: string; paths: string[] }>;
  missingHeadings: Array<{ id: string; path: string }>;
  ok: boolean;
}

export async function diagnose(notes: NoteService, files: VaultFiles): Promise<DoctorReport> {
  // Files added or copied by hand since the store last looked must be seen, not guessed at.
  await notes.store.refresh?.();
  const listed = await notes.list({ orderBy: 'title', direction: 'asc' });
  const listedPaths = new Set(listed.map((n) => n.path));
  const notEntries: DoctorReport['notEntries'] = [];
  const ignored: DoctorReport['ignored'] = [];
  for (const rel of await markdownFiles(files, '')) {
    if (listedPaths.has(rel)) continue;
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (isFolderDocument(name)) {
      ignored.push({ path: rel, reason: 'a folder document (README, AGENTS, …), not an entry: left alone' });
      continue;
    }
    notEntries.push({
      path: rel,
      reason: /id__[A-Za-z0-9]{6}\.md$/.test(name)
        ? 'not an entry: the file is not text, or changed since the last refresh'
        : 'not an entry: the filename has no "id__XXXXXX" part (expected "slug id__XXXXXX.md")',
    });
  }
  const byId = new Map<string, string[]>();
  for (const n of listed) byId.set(n.id, [...(byId.get(n.id) ?? []), locationOf(n).path]);
  const duplicateIds = [...byId]
    .filter(([, paths]) => paths.length > 1)
    .map(([id, paths]) => ({ id, paths: paths.sort() }));
  const missingHeadings: DoctorReport['missingHeadings'] = [];
  for (const [id] of byId) {
    const note = await notes.get(id);
    if (note?.warnings?.some((w) => w.startsWith('no "# heading"')))
      missingHeadings.push({ id, path: locationOf(note).path });
  }
  return {
    entries: listed.length,
    notEntries,
    ignored,
    duplicateIds,
    missingHeadings,
    ok: notEntries.length === 0 && duplicateIds.length === 0 && missingHeadings.length === 0,
  };
}

/** README.md, AGENTS.md, CLAUDE.md, CHANGELOG.md, CONTRIBUTING.md, LICENSE.md, … in any folder, any case. */
const FOLDER_DOCUMENT =
  /^(readme|agents|claude|gemini|changelog|contributing|license|licence|code_of_conduct|security|notice|authors)\.md$/i;

export function isFolderDocument(filename: string): boolean {
  return FOLDER_DOCUMENT.test(filename);
}

async function markdownFiles(files: VaultFiles, rel: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await files.listDir(rel)) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory) out.push(...(await markdownFiles(files, child)));
    else if (entry.name.toLowerCase().endsWith('.md')) out.push(child);
  }
  return out.sort();
}
