/**
 * A markdown folder into a postgres vault: the folder is walked once, its notes written in batches
 * (one transaction each, a few in flight so the walk overlaps the commits), and the
 * report says what was created, replaced, left alone, normalised, refused and skipped, and why.
 * A re-run writes nothing for notes already there with the same hash.
 */
import fs from 'node:fs';
import path from 'node:path';
import { noProgress, type ProgressReporter } from '../../kernel/progress.js';
import { markdownNotes, type SkippedFile, type SourceNote } from './markdown-source.js';
import type { PgImportWriter, WriteOutcome } from './pg-writer.js';

/** Lists in the report keep this many entries; the counts are whole. */
const LISTED = 1_000;

export interface ImportOptions {
  defaultType: string;
  batchSize?: number;
  /** Batches written at once (each its own connection and transaction). */
  parallel?: number;
  /** Replace notes whose text in the database differs (else they are reported and left). */
  overwrite?: boolean;
  progress?: ProgressReporter;
}

export interface ImportReport {
  folder: string;
  notes: number;
  created: number;
  replaced: number;
  unchanged: number;
  /** In the database with other text; left as they are without --overwrite. */
  differs: { count: number; ids: string[] };
  /** Stored, but not byte for byte at their path (so an export differs from the file). */
  normalised: { count: number; notes: Array<{ from: string; id: string; reasons: string[] }> };
  /** Notes the store would not take (unreadable frontmatter, an id met twice). */
  refused: { count: number; notes: Array<{ from: string; reason: string }> };
  skipped: { count: number; files: SkippedFile[] };
  seconds: number;
  notesPerSecond: number;
}

/** How many markdown files the walk will meet (one readdir per folder), for the progress bar. */
export async function countMarkdown(root: string): Promise<number> {
  let count = 0;
  for (const top of await fs.promises.readdir(root, { withFileTypes: true })) {
    if (top.name.startsWith('.')) continue;
    if (top.isFile() && top.name.toLowerCase().endsWith('.md')) count++;
    else if (top.isDirectory())
      for (const name of await fs.promises.readdir(path.join(root, top.name)))
        if (name.toLowerCase().endsWith('.md')) count++;
  }
  return count;
}

export async function importFolder(
  folder: string,
  writer: PgImportWriter,
  options: ImportOptions,
): Promise<ImportReport> {
  const started = performance.now();
  const progress = options.progress ?? noProgress;
  const batchSize = options.batchSize ?? 250;
  const parallel = Math.max(1, options.parallel ?? 4);
  const report: ImportReport = {
    folder,
    notes: 0,
    created: 0,
    replaced: 0,
    unchanged: 0,
    differs: { count: 0, ids: [] },
    normalised: { count: 0, notes: [] },
    refused: { count: 0, notes: [] },
    skipped: { count: 0, files: [] },
    seconds: 0,
    notesPerSecond: 0,
  };
  const add = <T>(list: { count: number }, items: T[], item: T) => {
    list.count++;
    if (items.length < LISTED) items.push(item);
  };
  const tally = (batch: SourceNote[], outcomes: WriteOutcome[]) => {
    for (const [k, outcome] of outcomes.entries()) {
      const note = batch[k]!;
      if (outcome.status === 'differs') add(report.differs, report.differs.ids, note.id);
      else if (outcome.status === 'refused')
        add(report.refused, report.refused.notes, { from: note.from, reason: outcome.reason });
      else {
        report[outcome.status]++;
        if (note.normalised.length && outcome.status !== 'unchanged')
          add(report.normalised, report.normalised.notes, { from: note.from, id: note.id, reasons: note.normalised });
      }
    }
    progress.tick(batch.length);
  };

  progress.start('import', await countMarkdown(folder));
  // Ids met in this run: a root note normalised into a type folder may meet a file already there.
  const seen = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  const flush = async (batch: SourceNote[]) => {
    const done = writer.write(batch, options.overwrite ?? false).then((outcomes) => tally(batch, outcomes));
    const tracked = done.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    // A few batches at most: the walk reads ahead while they commit, and memory holds that many batches' texts.
    if (inFlight.size >= parallel) await Promise.race(inFlight);
  };
  let batch: SourceNote[] = [];
  try {
    for await (const item of markdownNotes(folder, options.defaultType)) {
      if (item.kind === 'skipped') {
        add(report.skipped, report.skipped.files, { path: item.path, reason: item.reason });
        continue;
      }
      report.notes++;
      if (seen.has(item.id)) {
        add(report.refused, report.refused.notes, {
          from: item.from,
          reason: `its id ${item.id} is taken by another file`,
        });
        progress.tick();
        continue;
      }
      seen.add(item.id);
      batch.push(item);
      if (batch.length >= batchSize) {
        await flush(batch);
        batch = [];
      }
    }
    if (batch.length) await flush(batch);
    await Promise.all(inFlight);
  } finally {
    // A failed batch leaves the other one to finish (or fail) before the error is told.
    await Promise.allSettled(inFlight);
    progress.stop();
  }
  report.seconds = (performance.now() - started) / 1000;
  report.notesPerSecond = Math.round(report.notes / Math.max(report.seconds, 0.001));
  return report;
}
