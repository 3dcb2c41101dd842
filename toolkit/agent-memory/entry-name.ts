/**
 * Seed 002's naming and layout rules. An entry is `slug id__XXXXXX.md`: the id (6 base58
 * characters, never changed) comes from the filename, the slug from the title. Where the file
 * sits gives its status and org: `archive/` anywhere on the path means archived, and
 * `orgs/{org}/…` at the root names the org; everything else is an active entry of no org.
 */
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { ValidationError } from '../../kernel/errors.js';
import { slugify, type SlugRule } from '../slugify.js';

export const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const ARCHIVE_DIR = 'archive';
export const ORGS_DIR = 'orgs';

/** Ids are generated in base58; reading accepts any 6 letters or digits, as the link parser does. */
const ID_TOKEN = /^id__[A-Za-z0-9]{6}$/;
const FILE_ID = /(?:^|[\s_-])(id__[A-Za-z0-9]{6})\.md$/;

export type EntryStatus = 'active' | 'archived';

export interface Placement {
  status: EntryStatus;
  org?: string;
}

export function newId(): string {
  let id = 'id__';
  for (let i = 0; i < 6; i++) id += BASE58[randomInt(58)];
  return id;
}

/** The id a filename carries, or undefined when it has none (then the file is not an entry). */
export function idFromFilename(filename: string): string | undefined {
  return FILE_ID.exec(filename)?.[1];
}

/** `id__Ab3xYz` or the bare `Ab3xYz` → `id__Ab3xYz`; anything else is a validation error. */
export function normaliseId(input: string, field = 'id'): string {
  const trimmed = input.trim();
  const id = ID_TOKEN.test(trimmed) ? trimmed : ID_TOKEN.test(`id__${trimmed}`) ? `id__${trimmed}` : undefined;
  if (id === undefined) {
    throw new ValidationError(
      `"${trimmed}" is not an entry id: use the id__XXXXXX token from a link (or its 6 characters).`,
      { field, value: trimmed },
    );
  }
  return id;
}

export function isEntryId(input: string): boolean {
  return ID_TOKEN.test(input);
}

/** Lower-case words joined by `-`, letters and digits of any script kept (`kernel/util/slugify.ts`). */
export const ENTRY_SLUG: SlugRule = { dashes: 'non-alphanumeric', maxLength: 80 };

export function entryFilename(title: string, id: string): string {
  return `${slugify(title, ENTRY_SLUG)} ${id}.md`;
}

/** The title a file without a `# heading` gets: its slug, dashes as spaces. */
export function titleFromFilename(filename: string): string {
  const stem = filename.replace(/\.md$/i, '').replace(FILE_ID_STEM, '');
  return stem.replace(/[-_]+/g, ' ').trim() || filename;
}

const FILE_ID_STEM = /[\s_-]*id__[A-Za-z0-9]{6}$/;

export function placementOf(relPath: string): Placement {
  const segments = relPath.split('/').slice(0, -1);
  const org = segments[0] === ORGS_DIR && segments.length > 1 ? segments[1] : undefined;
  const scoped = org !== undefined ? segments.slice(2) : segments;
  const status: EntryStatus = scoped.includes(ARCHIVE_DIR) ? 'archived' : 'active';
  return { status, ...(org !== undefined ? { org } : {}) };
}

/**
 * Where an entry goes when its status or org changes: the folder below its scope (root or
 * `orgs/{org}`) is kept, with `archive/` put in front of it or taken away, so archiving and
 * unarchiving return a file to where it was.
 */
export function placedPath(relPath: string, target: Placement): string {
  const segments = relPath.split('/');
  const filename = segments.pop() as string;
  const org = segments[0] === ORGS_DIR && segments.length > 1 ? segments[1] : undefined;
  let inner = org !== undefined ? segments.slice(2) : segments;
  inner = inner.filter((s) => s !== ARCHIVE_DIR);
  const scope = target.org !== undefined ? [ORGS_DIR, assertOrgName(target.org)] : [];
  const status = target.status === 'archived' ? [ARCHIVE_DIR] : [];
  return [...scope, ...status, ...inner, filename].join('/');
}

/** An org is one folder name: letters, digits, `.`, `_`, `-`; not hidden, not `..`. */
export function assertOrgName(org: string): string {
  if (!/^[\p{L}\p{N}][\p{L}\p{N}._-]{0,63}$/u.test(org)) {
    throw new ValidationError(
      `Invalid org "${org.replace(/\0/g, '\\0')}": use letters, digits, ".", "_" and "-" (starting with a letter or digit).`,
      { field: 'org', value: org },
    );
  }
  return org;
}

export function filenameOf(relPath: string): string {
  return path.posix.basename(relPath);
}
