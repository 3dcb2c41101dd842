/**
 * A note as the passages both engines index: chunked at headings and paragraphs
 * (embedding/chunks.ts), each with the text the embedder sees (title, heading, passage)
 * and that text's hash, which keys its vector: a passage whose text did not change keeps its
 * vector through any edit of its note.
 */
import { createHash } from 'node:crypto';
import type { Note } from '../../kernel/index.js';
import { chunkNote, DEFAULT_CHUNK_CHARS, type Chunk } from './chunks.js';

export interface Passage extends Chunk {
  /** What the embedder sees: title, heading and text. */
  embedded: string;
  hash: string;
}

export function passagesOf(note: Pick<Note, 'title' | 'content'>, maxChars = DEFAULT_CHUNK_CHARS): Passage[] {
  const pieces = chunkNote(note.content, maxChars);
  // A note with no body is still found by its title.
  if (pieces.length === 0) pieces.push({ heading: '', text: '' });
  return pieces.map((piece) => {
    const embedded = embeddedText(note.title, piece.heading, piece.text);
    return { ...piece, embedded, hash: passageHash(embedded) };
  });
}

/** The title and heading travel with each passage: "Budget" under "## Kestrel" is about the kestrel. */
export function embeddedText(title: string, heading: string, text: string): string {
  return [title, heading, text].filter(Boolean).join('\n');
}

export function passageHash(embedded: string): string {
  return createHash('sha256').update(embedded).digest('base64url');
}
