/**
 * The kernel's Note in seed 003's shapes. A Simplenote note is one text whose first line is its
 * title; the store splits it into title and content, so the text is joined back here. Versions:
 * seed 003's local_version is the Simperium version the note was read at (there is no other
 * local counter: every write is confirmed by Simperium first), and so is server_version.
 */
import type { Note, NoteSummary } from '../../kernel/note.js';
import type { ListItem, NoteData } from './schemas.js';

export function textOf(note: Pick<Note, 'title' | 'content'>): string {
  return note.content === '' ? note.title : `${note.title}\n${note.content}`;
}

/** The inverse of textOf: the first line is the title. */
export function titleAndContent(text: string): { title: string; content: string } {
  const newline = text.indexOf('\n');
  return newline < 0
    ? { title: text, content: '' }
    : { title: text.slice(0, newline), content: text.slice(newline + 1) };
}

export function versionOf(note: Pick<NoteSummary, 'metadata'>): number {
  const version = note.metadata.version;
  return typeof version === 'number' ? version : 0;
}

export function isTrashed(note: Pick<NoteSummary, 'metadata'>): boolean {
  return note.metadata.deleted === true;
}

export function epochSeconds(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** The first non-empty line, at most 80 characters; "(empty note)" when there is none. */
export function previewOf(title: string, content?: string): string {
  const first = [title, ...(content ?? '').split('\n', 50)].map((line) => line.trim()).find((line) => line !== '');
  return first ? [...first].slice(0, 80).join('') : '(empty note)';
}

export function listItemOf(note: NoteSummary, preview: string): ListItem {
  return {
    type: 'text',
    uuid: note.id,
    text: preview,
    local_version: versionOf(note),
    tags: note.tags,
    modified_at: epochSeconds(note.updated),
    trash: isTrashed(note),
  };
}

export function noteDataOf(note: Note, text: string = textOf(note)): NoteData {
  const version = versionOf(note);
  return {
    id: note.id,
    local_version: version,
    server_version: version,
    text,
    tags: note.tags,
    modified_at: epochSeconds(note.updated),
    created_at: epochSeconds(note.created),
    trash: isTrashed(note),
    // A note the store could not read fresh (served from a local copy) says so.
    ...(note.warnings?.length ? { notices: note.warnings } : {}),
  };
}
