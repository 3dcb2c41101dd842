/**
 * The notes of a markdown folder, one at a time, as a database vault would hold them: a flint
 * layout (`<type>/<name>.md`) passes as it is; what the postgres store cannot hold at its path or
 * byte for byte is either normalised (said so, with the reason) or skipped (with the reason).
 * Files are read one by one as the walk reaches them, so a 100,000-note folder is never in memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { normaliseRelative } from '../../toolkit/files/paths.js';
import { typeNameProblem } from '../../toolkit/type-name.js';

export interface SourceNote {
  /** `<type>/<name>.md`, the note's id in the database vault. */
  id: string;
  /** Where it was found, relative to the folder, `/`-separated. */
  from: string;
  text: string;
  /** What was changed to store it, one reason each; empty when it is stored byte for byte at its path. */
  normalised: string[];
}

export interface SkippedFile {
  path: string;
  reason: string;
}

export type SourceItem = ({ kind: 'note' } & SourceNote) | ({ kind: 'skipped' } & SkippedFile);

const DECODER = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Folder entries in name order, so runs and reports come out alike. */
async function entries(dir: string): Promise<fs.Dirent[]> {
  const found = await fs.promises.readdir(dir, { withFileTypes: true });
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Every file under `root` as a note to store or a skip with its reason. `defaultType`: the folder
 * a note at the root goes to (the store keeps notes in type folders only).
 */
export async function* markdownNotes(root: string, defaultType: string): AsyncGenerator<SourceItem> {
  for (const top of await entries(root)) {
    if (top.name.startsWith('.')) {
      yield skip(top.name, 'hidden: tool or plugin state (e.g. .flint-note/ config), not notes');
      continue;
    }
    if (top.isFile()) {
      if (!isMarkdown(top.name)) {
        yield skip(top.name, 'not a markdown note');
        continue;
      }
      const id = `${defaultType}/${top.name}`;
      const refused = unservable(id);
      if (refused) yield skip(top.name, refused);
      else yield await read(root, top.name, id, [`a note at the root: stored in the default type's folder, as ${id}`]);
      continue;
    }
    if (!top.isDirectory()) {
      yield skip(top.name, 'not a regular file or folder (symlinks are not followed)');
      continue;
    }
    const problem = typeNameProblem(top.name);
    for (const entry of await entries(path.join(root, top.name))) {
      const rel = `${top.name}/${entry.name}`;
      if (entry.isDirectory()) yield skip(`${rel}/`, 'nested folder: the postgres store holds <type>/<name>.md only');
      else if (!entry.isFile()) yield skip(rel, 'not a regular file (symlinks are not followed)');
      else if (!isMarkdown(entry.name)) yield skip(rel, 'not a markdown note (attachments stay in the folder)');
      else if (entry.name.startsWith('_'))
        yield skip(rel, "a type's own file (_description.md): plugin-owned, kept in each host's vault folder");
      else if (entry.name.startsWith('.')) yield skip(rel, 'hidden file');
      else if (problem) yield skip(rel, `folder "${top.name}" is not a type name: ${problem.reason}`);
      else yield unservable(rel) ? skip(rel, unservable(rel)!) : await read(root, rel, rel, []);
    }
  }
}

/**
 * Why the store's \`files\` would refuse the note's path (a name Windows reserves, a backslash), so
 * that no note goes in that an export or a raw read could not give back; undefined when it is fine.
 */
function unservable(id: string): string | undefined {
  try {
    normaliseRelative(id);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

function isMarkdown(name: string): boolean {
  return name.toLowerCase().endsWith('.md');
}

function skip(rel: string, reason: string): SourceItem {
  return { kind: 'skipped', path: rel, reason };
}

/** The file's text as the store will keep it, and what had to change for that. */
async function read(root: string, rel: string, id: string, normalised: string[]): Promise<SourceItem> {
  const bytes = await fs.promises.readFile(path.join(root, rel));
  let text: string;
  try {
    text = DECODER.decode(bytes);
  } catch {
    text = bytes.toString('utf8');
    normalised.push('not valid UTF-8: undecodable bytes became U+FFFD');
  }
  if (text.includes('\0')) {
    text = text.replaceAll('\0', '');
    normalised.push('NUL characters removed (PostgreSQL text cannot hold them)');
  }
  return { kind: 'note', id, from: rel, text, normalised };
}
