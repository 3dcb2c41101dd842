/**
 * Whether a folder looks like an agent-memory root: an entry (`… id__XXXXXX.md`) at its top,
 * under `archive/`, or under `orgs/{org}/` (and its `archive/`), or the history cache the
 * markdown-git backend leaves in `.notekernel/`. Folder listings only, a few at most; no file
 * is read. The CLI asks it when no vault is given, so `notekernel call memory_list` run inside
 * a memory folder serves that folder (app/cli/memory-folder.ts, profiles/agent-memory/README.md).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { idFromFilename } from '../../toolkit/agent-memory/entry-name.js';

export const AGENT_MEMORY_PROFILE = 'agent-memory';

/** At most this many `orgs/*` folders are looked into. */
const MAX_ORGS = 20;

export async function looksLikeMemoryRoot(dir: string): Promise<boolean> {
  const top = await names(dir);
  if (!top) return false;
  if (hasEntry(top)) return true;
  if (await exists(path.join(dir, '.notekernel', 'git-timestamps.json'))) return true;
  if (top.some((e) => e.dir && e.name === 'archive') && hasEntry(await names(path.join(dir, 'archive')))) return true;
  if (!top.some((e) => e.dir && e.name === 'orgs')) return false;
  const orgs = ((await names(path.join(dir, 'orgs'))) ?? [])
    .filter((e) => e.dir && !e.name.startsWith('.'))
    .slice(0, MAX_ORGS);
  for (const org of orgs) {
    const inside = await names(path.join(dir, 'orgs', org.name));
    if (hasEntry(inside)) return true;
    if (
      inside?.some((e) => e.dir && e.name === 'archive') &&
      hasEntry(await names(path.join(dir, 'orgs', org.name, 'archive')))
    )
      return true;
  }
  return false;
}

interface Name {
  name: string;
  dir: boolean;
}

async function names(dir: string): Promise<Name[] | undefined> {
  try {
    return (await fs.readdir(dir, { withFileTypes: true })).map((e) => ({ name: e.name, dir: e.isDirectory() }));
  } catch {
    return undefined;
  }
}

function hasEntry(list: Name[] | undefined): boolean {
  return (list ?? []).some((e) => !e.dir && idFromFilename(e.name) !== undefined);
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
