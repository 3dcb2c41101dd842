/** What the flint drop-in notes tests read back: a note as get_note answers it, and whether a file exists. */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FlintSession } from '../../support/flint-session.js';

export type NoteBody = {
  id: string;
  title: string;
  content: string;
  content_hash: string;
  created: string;
  updated: string;
  metadata: Record<string, unknown>;
};

export const getNote = (v: FlintSession, identifier: string) => v.ok<NoteBody>('get_note', { identifier });

export const fileExists = (v: FlintSession, rel: string) =>
  fs.stat(path.join(v.root, rel)).then(
    () => true,
    () => false,
  );
