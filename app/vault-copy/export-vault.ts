/**
 * A database vault back into markdown files: every note written at its id as the text its hash
 * covers (the imported file's bytes when nothing was normalised), each by an atomic write, a page
 * of notes at a time. A file already holding those bytes is left untouched, so a re-export of an
 * unchanged vault writes nothing. Through the NoteStore's public surface: `list` and `files`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { NoteStore } from '../../kernel/note-store.js';
import { ValidationError } from '../../kernel/errors.js';
import { noProgress, type ProgressReporter } from '../../kernel/progress.js';
import { writeFileAtomic } from '../../toolkit/files/atomic-write.js';

const PAGE = 500;
/** Files written at once: the fsyncs of one overlap the reads of the next. */
const PARALLEL = 8;

export interface ExportReport {
  folder: string;
  notes: number;
  written: number;
  /** Files that already held the note's text. */
  unchanged: number;
  seconds: number;
  notesPerSecond: number;
}

export async function exportVault(
  store: NoteStore,
  folder: string,
  progress: ProgressReporter = noProgress,
): Promise<ExportReport> {
  if (!store.files) throw new ValidationError('This store has no note text to export (capability files).', {});
  const files = store.files;
  const started = performance.now();
  const root = path.resolve(folder);
  await fs.promises.mkdir(root, { recursive: true });
  const report: ExportReport = { folder: root, notes: 0, written: 0, unchanged: 0, seconds: 0, notesPerSecond: 0 };
  const made = new Set<string>();
  const one = async (id: string) => {
    const target = path.resolve(root, id);
    if (!target.startsWith(root + path.sep))
      throw new ValidationError(`The note id ${id} leaves the export folder; nothing was written for it.`, { id });
    const text = await files.readText(id);
    if (text === undefined) return; // deleted since the page was listed
    const bytes = Buffer.from(text, 'utf8');
    const existing = await fs.promises.readFile(target).catch(() => undefined);
    if (existing?.equals(bytes)) report.unchanged++;
    else {
      const dir = path.dirname(target);
      if (!made.has(dir)) {
        await fs.promises.mkdir(dir, { recursive: true });
        made.add(dir);
      }
      await writeFileAtomic(target, bytes);
      report.written++;
    }
    report.notes++;
  };
  progress.start('export', await store.count());
  try {
    // Oldest first with the id as tie-break: a stable order, so offset pages neither skip nor repeat.
    for (let offset = 0; ; offset += PAGE) {
      const page = await store.list({ orderBy: 'created', direction: 'asc', limit: PAGE, offset });
      for (let k = 0; k < page.length; k += PARALLEL) {
        const slice = page.slice(k, k + PARALLEL);
        await Promise.all(slice.map((note) => one(note.id)));
        progress.tick(slice.length);
      }
      if (page.length < PAGE) break;
    }
  } finally {
    progress.stop();
  }
  report.seconds = (performance.now() - started) / 1000;
  report.notesPerSecond = Math.round(report.notes / Math.max(report.seconds, 0.001));
  return report;
}
