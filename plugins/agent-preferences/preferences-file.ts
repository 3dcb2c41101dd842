/**
 * `Preferences.md` at the vault root, as seed 004 keeps it: one preference per bullet line. Line
 * numbers count preferences (the bullets), 1-based, which is what list_preferences shows and
 * remove_preference takes; any other text in the file (a heading, a note to self) is kept.
 */
import type { VaultFiles } from '../../kernel/backend.js';
import { ContentHashMismatchError, NotFoundError, ValidationError } from '../../kernel/errors.js';
import type { NoteService } from '../../kernel/notes.js';
import { readNoteText, writeNoteText } from '../../toolkit/files/note-text.js';

export const PREFERENCES_FILE = 'Preferences.md';
const BULLET = /^[ \t]*[-*+][ \t]+(.*\S)[ \t]*$/;
const NEW_FILE = '# Preferences\n\n';

export interface Preference {
  line_number: number;
  preference: string;
}

export function preferencesIn(text: string): Preference[] {
  const out: Preference[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = BULLET.exec(line);
    if (match?.[1]) out.push({ line_number: out.length + 1, preference: match[1] });
  }
  return out;
}

export async function readPreferences(files: VaultFiles): Promise<Preference[]> {
  const current = await readNoteText(files, PREFERENCES_FILE);
  return current ? preferencesIn(current.text) : [];
}

/** Read, change, write with a compare-and-swap; a concurrent writer makes it read again. */
async function change(
  notes: NoteService,
  files: VaultFiles,
  edit: (text: string | undefined) => string,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const current = await readNoteText(files, PREFERENCES_FILE);
    try {
      await writeNoteText(notes, files, PREFERENCES_FILE, edit(current?.text), current?.hash ?? null);
      return;
    } catch (err) {
      if (attempt >= 3 || !(err instanceof ContentHashMismatchError || (err as { code?: string }).code === 'conflict'))
        throw err;
    }
  }
}

export async function addPreference(notes: NoteService, files: VaultFiles, preference: string): Promise<Preference> {
  const line = preference.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  if (line === '') throw new ValidationError('preference is empty.', { field: 'preference' });
  let added: Preference | undefined;
  await change(notes, files, (text) => {
    const base = text ?? NEW_FILE;
    const next = `${base}${base === '' || base.endsWith('\n') ? '' : '\n'}- ${line}\n`;
    added = { line_number: preferencesIn(next).length, preference: line };
    return next;
  });
  return added as Preference;
}

export async function removePreference(notes: NoteService, files: VaultFiles, lineNumber: number): Promise<Preference> {
  let removed: Preference | undefined;
  await change(notes, files, (text) => {
    const count = text === undefined ? 0 : preferencesIn(text).length;
    if (text === undefined || lineNumber > count) {
      throw new NotFoundError(
        `No preference ${lineNumber}: there ${count === 1 ? 'is 1' : `are ${count}`}; list_preferences shows their numbers.`,
        { field: 'line_number', count },
      );
    }
    const lines = text.split('\n');
    let seen = 0;
    const index = lines.findIndex((line) => BULLET.test(line.replace(/\r$/, '')) && ++seen === lineNumber);
    removed = { line_number: lineNumber, preference: BULLET.exec(lines[index]!.replace(/\r$/, ''))![1]! };
    lines.splice(index, 1);
    return lines.join('\n');
  });
  return removed as Preference;
}

/** The preferences as a system-prompt section (what the seed's agent adds at start-up). */
export function preferencesPrompt(preferences: readonly Preference[]): string {
  if (!preferences.length) return 'User Preferences: none saved yet.';
  return [
    '## User Preferences',
    '',
    'Follow these preferences the user has saved:',
    ...preferences.map((p) => `- ${p.preference}`),
  ].join('\n');
}
