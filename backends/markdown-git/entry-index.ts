/**
 * The in-memory view of the memory root: every entry file by id, plus the markdown files that
 * are not entries. Two files may carry one id (a copy made by hand, an interrupted move): both
 * are kept and listed, never one silently dropped; writes to such an id are refused until one
 * file is renamed.
 */
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConflictError } from '../../kernel/errors.js';
import { TEMP_PREFIX } from '../../toolkit/files/atomic-write.js';
import type { EntryRecord } from './entry-file.js';
import { idFromFilename } from '../../toolkit/agent-memory/entry-name.js';

export interface NotAnEntry {
  path: string;
  reason: string;
}

export const NOT_AN_ENTRY = 'not an entry: the filename has no "id__XXXXXX" part (expected "slug id__XXXXXX.md")';

export class EntryIndex {
  private readonly byId = new Map<string, EntryRecord[]>();
  notEntries: NotAnEntry[] = [];

  /** The entry for an id: the first by path when two files carry it. */
  primary(id: string): EntryRecord | undefined {
    return this.byId.get(id)?.[0];
  }

  all(id: string): readonly EntryRecord[] {
    return this.byId.get(id) ?? [];
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Refuses a write to an id two files carry: which one was meant cannot be known. */
  single(id: string): EntryRecord | undefined {
    const records = this.all(id);
    if (records.length > 1) {
      throw new ConflictError(
        `Two files carry ${id}: ${records.map((r) => r.relPath).join(', ')}. Rename one (a new id__) before changing it.`,
        {
          id,
          paths: records.map((r) => r.relPath),
        },
      );
    }
    return records[0];
  }

  records(): EntryRecord[] {
    const out: EntryRecord[] = [];
    for (const list of this.byId.values()) out.push(...list);
    return out;
  }

  get size(): number {
    let n = 0;
    for (const list of this.byId.values()) n += list.length;
    return n;
  }

  /** Adds or replaces the record for its path. */
  put(record: EntryRecord): void {
    const list = (this.byId.get(record.id) ?? []).filter((r) => r.relPath !== record.relPath);
    list.push(record);
    list.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
    this.byId.set(record.id, list);
  }

  removePath(id: string, relPath: string): void {
    const list = (this.byId.get(id) ?? []).filter((r) => r.relPath !== relPath);
    if (list.length) this.byId.set(id, list);
    else this.byId.delete(id);
  }

  clear(): void {
    this.byId.clear();
    this.notEntries = [];
  }
}

/** Every `.md` file under the root, vault-relative; hidden folders and files are never entries. */
export async function listMarkdownFiles(root: string): Promise<Array<{ relPath: string; id: string | undefined }>> {
  const out: Array<{ relPath: string; id: string | undefined }> = [];
  await walkRoot(root, (child, entry) => {
    if (entry.isFile() && !entry.name.startsWith('.') && entry.name.toLowerCase().endsWith('.md'))
      out.push({ relPath: child, id: idFromFilename(entry.name) });
  });
  out.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
  return out;
}

/**
 * The files carrying one id, vault-relative and sorted as listMarkdownFiles would list them:
 * a read before the opening scan. Names are only matched against the id (no per-file parsing),
 * and the folders are read concurrently.
 */
export async function filesOfId(root: string, id: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.readdir(rel ? path.join(root, ...rel.split('/')) : root, { withFileTypes: true });
    const folders: string[] = [];
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules')
          folders.push(rel ? `${rel}/${entry.name}` : entry.name);
      } else if (
        entry.name.includes(id) &&
        entry.isFile() &&
        !entry.name.startsWith('.') &&
        idFromFilename(entry.name) === id
      ) {
        out.push(rel ? `${rel}/${entry.name}` : entry.name);
      }
    }
    await Promise.all(folders.map(walk));
  };
  await walk('');
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Temp files of writes (`.nk-tmp-…`, hidden, so listMarkdownFiles never sees them), for the sweep at open. */
export async function listTempFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  await walkRoot(root, (child, entry) => {
    if (entry.name.startsWith(TEMP_PREFIX)) out.push(child);
  });
  return out;
}

/** Depth-first; hidden folders and node_modules are not entered, symlinks not followed. */
async function walkRoot(root: string, visit: (relPath: string, entry: Dirent) => void): Promise<void> {
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.readdir(rel ? path.join(root, ...rel.split('/')) : root, { withFileTypes: true });
    for (const entry of entries) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules') await walk(child);
      } else if (entry.name.startsWith(TEMP_PREFIX) || !entry.name.startsWith('.')) {
        visit(child, entry);
      }
    }
  };
  await walk('');
}
