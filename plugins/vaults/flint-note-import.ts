/**
 * flint-note's own vault registry (`~/.config/flint-note/config.yml` and the like), read so a
 * user moving over finds their vaults: its entries are copied into our registry once, by id,
 * never overwriting one of ours, and its current vault becomes ours when we have none. The
 * original's file is only read (decision 003). Our registry records the import, so a vault
 * removed afterwards does not come back.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadYamlBounded } from '../../toolkit/markdown/frontmatter.js';

export interface ImportedVault {
  id: string;
  name: string;
  path: string;
  description?: string;
  created?: string;
  last_used?: string;
}

export interface FlintNoteRegistry {
  file: string;
  vaults: ImportedVault[];
  current?: string;
  /** Entries that could not be taken, with why. */
  skipped: string[];
}

/** The first of `files` that exists, parsed; undefined when none does. A broken file is reported as skipped, not thrown. */
export async function readFlintNoteRegistry(
  files: readonly string[],
  validId: RegExp,
): Promise<FlintNoteRegistry | undefined> {
  for (const file of files) {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch {
      continue;
    }
    let data: unknown;
    try {
      data = loadYamlBounded(text);
    } catch (err) {
      return { file, vaults: [], skipped: [`not valid YAML: ${(err as Error).message.split('\n')[0]}`] };
    }
    const record = (data && typeof data === 'object' ? data : {}) as { vaults?: unknown; current_vault?: unknown };
    const vaults: ImportedVault[] = [];
    const skipped: string[] = [];
    const entries =
      record.vaults && typeof record.vaults === 'object'
        ? Object.entries(record.vaults as Record<string, unknown>)
        : [];
    for (const [key, value] of entries) {
      const entry = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
      const id = typeof entry.id === 'string' ? entry.id : key;
      const where = typeof entry.path === 'string' ? entry.path : undefined;
      if (!validId.test(id)) skipped.push(`${id}: not a valid vault id here (lowercase letters, digits, _ and -)`);
      else if (!where) skipped.push(`${id}: no path`);
      else {
        vaults.push({
          id,
          name: typeof entry.name === 'string' ? entry.name : id,
          path: path.resolve(expandHome(where)),
          ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
          ...(typeof entry.created === 'string' ? { created: entry.created } : {}),
          ...(typeof entry.last_accessed === 'string'
            ? { last_used: entry.last_accessed }
            : typeof entry.last_used === 'string'
              ? { last_used: entry.last_used }
              : {}),
        });
      }
    }
    const current = typeof record.current_vault === 'string' ? record.current_vault : undefined;
    return { file, vaults, ...(current ? { current } : {}), skipped };
  }
  return undefined;
}

function expandHome(dir: string): string {
  return dir === '~' || dir.startsWith('~/') || dir.startsWith('~\\') ? path.join(os.homedir(), dir.slice(1)) : dir;
}
