/**
 * A note as the `notes` table holds it, and the markdown text that stands for it. The content
 * hash covers that text (frontmatter with title, type, times and tags, then the metadata in its
 * own key order, then the body), so a note exported to a file hashes the same as in the database,
 * and any change to any field changes the hash. Metadata is kept as `json`, not `jsonb`, because
 * `jsonb` reorders keys and the text must come back byte for byte.
 */
import path from 'node:path';
import { ValidationError } from '../../kernel/errors.js';
import type { Metadata, MetadataValue, Note, NoteSummary } from '../../kernel/note.js';
import { contentHash } from '../../toolkit/hash.js';
import { composeMarkdown, loadYamlBounded, splitFrontmatter } from '../../toolkit/markdown/frontmatter.js';
import { foldWords } from '../../toolkit/search/fold-letters.js';

/** Fields of the note itself: written first in the frontmatter, from the note's fields whatever the metadata says. */
const OWN_KEYS = ['title', 'type', 'created', 'updated', 'tags'] as const;

export interface NoteRow {
  id: string;
  type: string;
  title: string;
  body: string;
  /** The markdown the note stands for: verbatim when written as text, else noteText's form. */
  text: string;
  metadata: Metadata;
  tags: string[];
  content_hash: string;
  size: number;
  created: string;
  updated: string;
}

/** A row as reads return it: everything but its text. */
export type StoredRow = Omit<NoteRow, 'text'>;

/** The columns a summary reads (no body); a full read adds `body`. */
export const SUMMARY_COLUMNS = 'id, type, title, metadata, tags, content_hash, size, created, updated';
export const NOTE_COLUMNS = `${SUMMARY_COLUMNS}, body`;

export interface NoteFields {
  id: string;
  type: string;
  title: string;
  content: string;
  metadata: Metadata;
  tags: string[];
  created: string;
  updated: string;
}

/**
 * A note's frontmatter, as `Note.metadata` gives it (as fs-sqlite's does): title, type, times and
 * tags first, from the note's own fields, then the caller's other keys in their order.
 */
export function frontmatterOf(fields: Omit<NoteFields, 'id' | 'content'>): Metadata {
  const head: Metadata = { title: fields.title, type: fields.type, created: fields.created, updated: fields.updated };
  if (fields.tags.length) head.tags = fields.tags;
  return { ...head, ...withoutOwnKeys(fields.metadata) };
}

/** The markdown text a note stands for: what its hash and size cover, and what an export writes. */
export function noteText(fields: Omit<NoteFields, 'id'>): string {
  return composeMarkdown(frontmatterOf(fields), fields.content);
}

/**
 * The row to write, with its hash and size. `verbatim`: the text as another program wrote it
 * (parsed into `fields`), kept byte for byte; else the fields' own text.
 */
export function rowOf(fields: NoteFields, verbatim?: string): NoteRow {
  checkTags(fields.tags);
  const metadata = frontmatterOf(fields);
  const text = verbatim ?? composeMarkdown(metadata, fields.content);
  return {
    id: fields.id,
    type: fields.type,
    title: fields.title,
    body: fields.content,
    text,
    metadata,
    tags: [...fields.tags],
    content_hash: contentHash(text),
    size: Buffer.byteLength(text, 'utf8'),
    created: fields.created,
    updated: fields.updated,
  };
}

/** `root`: the vault's folder, where the store's `files` show each note at `<root>/<id>`. */
export function noteOf(row: StoredRow, root: string): Note {
  return { ...summaryOf(row, root), content: row.body };
}

export function summaryOf(row: Omit<NoteRow, 'body' | 'text'>, root: string): NoteSummary {
  return {
    id: row.id,
    title: row.title,
    type: row.type,
    path: path.join(root, row.id),
    filename: row.id.split('/').at(-1)!,
    created: row.created,
    updated: row.updated,
    size: row.size,
    contentHash: row.content_hash,
    tags: row.tags,
    metadata: row.metadata ?? {},
  };
}

/** The folded texts of the weighted search vector: title (A) and body (D). */
export function searchTexts(row: Pick<NoteRow, 'title' | 'body'>): [string, string] {
  return [foldWords(row.title), foldWords(row.body)];
}

/** Reads a note's markdown text back into its fields (another program's edit, an import). */
/** A metadata value that is a list of strings (`tags` given in the metadata), else undefined. */
export function stringList(value: MetadataValue | undefined): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

export function fieldsOfText(id: string, text: string, fallback: { type: string; now: string }): NoteFields {
  const { yaml, body } = splitFrontmatter(text);
  let loaded: MetadataValue;
  try {
    loaded = yaml === undefined || yaml.trim() === '' ? {} : loadYamlBounded(yaml);
  } catch (err) {
    // Nothing is stored that could not be read back as this note.
    const reason = (err as Error).message.split('\n')[0];
    throw new ValidationError(`The frontmatter of ${id} is not readable YAML (${reason}); nothing was written.`, {
      field: 'frontmatter',
      id,
    });
  }
  if (loaded === null || typeof loaded !== 'object' || Array.isArray(loaded))
    throw new ValidationError(`The frontmatter of ${id} is not a YAML mapping.`, { field: 'frontmatter', id });
  const meta = loaded as Metadata;
  const text_ = (value: MetadataValue | undefined) => (typeof value === 'string' ? value : undefined);
  const stem = id.split('/').at(-1)!.replace(/\.md$/i, '');
  return {
    id,
    type: text_(meta.type) ?? fallback.type,
    title: text_(meta.title) ?? stem,
    content: yaml === undefined ? text : body,
    metadata: withoutOwnKeys(meta),
    tags: Array.isArray(meta.tags) ? meta.tags.filter((t): t is string => typeof t === 'string') : [],
    created: text_(meta.created) ?? fallback.now,
    updated: text_(meta.updated) ?? fallback.now,
  };
}

function withoutOwnKeys(metadata: Metadata | undefined): Metadata {
  const kept: Metadata = {};
  for (const [key, value] of Object.entries(metadata ?? {}))
    if (!(OWN_KEYS as readonly string[]).includes(key) && value !== undefined) kept[key] = value;
  return kept;
}

function checkTags(tags: readonly unknown[]): void {
  const bad = tags.findIndex((tag) => typeof tag !== 'string' || tag.trim() === '');
  if (bad >= 0) throw new ValidationError(`tags.${bad} must be a non-empty string.`, { field: `tags.${bad}` });
}
