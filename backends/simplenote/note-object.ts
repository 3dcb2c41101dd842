/**
 * A Simplenote note object ↔ the kernel's Note. The object's `content` is the whole text; its
 * first line is the title (Simplenote's own convention) and the rest, after the first newline,
 * is the Note's content. Tags are Simplenote tags; what else the object holds (trash, system
 * tags, sharing, the Simperium version) is exposed as metadata. The content hash covers a
 * canonical form of the whole stored object, so a change by any device changes it.
 */
import { createHash } from 'node:crypto';
import { ValidationError } from '../../kernel/errors.js';
import type { Metadata, NewNote, Note, NoteChange, NoteSummary } from '../../kernel/note.js';

export type NoteObject = Record<string, unknown>;

/** Metadata keys a writer may set, and those the service manages (accepted, never sent). */
const WRITABLE_METADATA = new Set(['systemTags', 'deleted']);
const SERVER_METADATA = new Set(['version', 'shareURL', 'publishURL']);

/** JSON with object keys sorted at every depth: the bytes the content hash covers. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

export function hashOf(object: NoteObject): string {
  return `sha256:${createHash('sha256').update(canonicalJson(object)).digest('hex')}`;
}

export function splitText(text: string): { title: string; content: string } {
  const newline = text.indexOf('\n');
  return newline < 0
    ? { title: text, content: '' }
    : { title: text.slice(0, newline), content: text.slice(newline + 1) };
}

/** The inverse of splitText; a note without a body is stored as its title line alone. */
export function joinText(title: string, content: string): string {
  return content === '' ? title : `${title}\n${content}`;
}

/** Epoch seconds (floats allowed; values that look like milliseconds tolerated) → ISO-8601. */
export function isoOf(seconds: unknown): string {
  let n = typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : Number(seconds);
  if (!Number.isFinite(n)) n = 0;
  if (n > 1e11) n /= 1000;
  return new Date(Math.round(n * 1000)).toISOString();
}

export function nowSeconds(): number {
  return Date.now() / 1000;
}

export function isTrashed(object: NoteObject): boolean {
  return object.deleted === true || object.deleted === 1;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** `contentHash`: the cache's stored hash of this object, which saves hashing it again. */
export function summaryOf(
  id: string,
  version: number,
  object: NoteObject,
  contentHash: string = hashOf(object),
): NoteSummary {
  const { title } = splitText(typeof object.content === 'string' ? object.content : '');
  const metadata: Metadata = {
    systemTags: strings(object.systemTags),
    deleted: isTrashed(object),
    version,
    shareURL: typeof object.shareURL === 'string' ? object.shareURL : '',
    publishURL: typeof object.publishURL === 'string' ? object.publishURL : '',
  };
  return {
    id,
    title,
    created: isoOf(object.creationDate),
    updated: isoOf(object.modificationDate),
    contentHash,
    tags: strings(object.tags),
    metadata,
  };
}

export function noteOf(id: string, version: number, object: NoteObject): Note {
  const { content } = splitText(typeof object.content === 'string' ? object.content : '');
  return { ...summaryOf(id, version, object), content };
}

/** A new note object with every field Simplenote's schema requires. */
export function newObject(input: NewNote): NoteObject {
  checkTitle(input.title);
  checkTags(input.tags);
  if (input.type !== undefined)
    throw new ValidationError('Simplenote notes have no types; leave `type` out.', { field: 'type' });
  const metadata = checkMetadata(input.metadata);
  const now = nowSeconds();
  return {
    content: joinText(input.title, input.content),
    tags: input.tags ?? [],
    systemTags: (metadata.systemTags as string[] | undefined) ?? [],
    creationDate: now,
    modificationDate: now,
    deleted: metadata.deleted === true,
    shareURL: '',
    publishURL: '',
  };
}

/** The object after a change, keeping every field other clients may have put there; undefined when nothing changes. */
export function changedObject(current: NoteObject, change: NoteChange): NoteObject | undefined {
  if (change.title !== undefined) checkTitle(change.title);
  checkTags(change.tags);
  const metadata = checkMetadata(change.metadata);
  const old = splitText(typeof current.content === 'string' ? current.content : '');
  const next: NoteObject = { ...current, content: joinText(change.title ?? old.title, change.content ?? old.content) };
  if (change.tags !== undefined) next.tags = [...change.tags];
  if (metadata.systemTags !== undefined) next.systemTags = metadata.systemTags;
  if (metadata.deleted !== undefined) next.deleted = metadata.deleted;
  if (canonicalJson(next) === canonicalJson(current)) return undefined;
  return { ...next, modificationDate: nowSeconds() };
}

function checkTitle(title: string): void {
  if (/[\r\n]/.test(title))
    throw new ValidationError('A Simplenote title is the first line of the note: it cannot contain a line break.', {
      field: 'title',
    });
}

function checkTags(tags: readonly unknown[] | undefined): void {
  const bad = tags?.findIndex((tag) => typeof tag !== 'string' || tag === '' || /\s/.test(tag));
  if (bad !== undefined && bad >= 0)
    throw new ValidationError(`Simplenote tags are single words: tags.${bad} is empty or holds a space.`, {
      field: 'tags',
    });
}

function checkMetadata(metadata: Metadata | undefined): { systemTags?: string[]; deleted?: boolean } {
  const out: { systemTags?: string[]; deleted?: boolean } = {};
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (SERVER_METADATA.has(key)) continue;
    if (!WRITABLE_METADATA.has(key))
      throw new ValidationError(
        `Simplenote notes cannot keep metadata "${key}"; only systemTags and deleted can be set.`,
        { field: `metadata.${key}` },
      );
    if (key === 'deleted') {
      if (typeof value !== 'boolean')
        throw new ValidationError('metadata.deleted must be true or false.', { field: 'metadata.deleted' });
      out.deleted = value;
    } else {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
        throw new ValidationError('metadata.systemTags must be a list of strings.', { field: 'metadata.systemTags' });
      out.systemTags = value as string[];
    }
  }
  return out;
}
