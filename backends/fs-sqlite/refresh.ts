/**
 * Brings the index up to date with the files: re-reads only files whose size or mtime changed,
 * drops rows of files that are gone. An unchanged vault costs one readdir per folder and one
 * stat per note.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RefreshReport } from '../../kernel/backend.js';
import type { Logger } from '../../kernel/logger.js';
import { noProgress, type ProgressReporter } from '../../kernel/progress.js';
import type { IndexDb } from './index-db.js';
import { listNoteFiles, type Layout } from './layout.js';
import type { ChangedFile } from './parse-file.js';
import { parsedBatches } from './parsed-batches.js';
import { TEMP_PREFIX } from '../../kernel/util/atomic-write.js';
import { isAlive } from '../../kernel/util/file-lock.js';

const BATCH = 500;

/** A temp file whose writer is gone (killed mid-write) is garbage: the note it was for is intact. */
function removeAbandonedTemps(root: string, temps: string[], logger: Logger): void {
  for (const rel of temps) {
    const pid = Number.parseInt(path.basename(rel).slice(TEMP_PREFIX.length), 10);
    if (Number.isInteger(pid) && isAlive(pid)) continue;
    try {
      fs.rmSync(path.join(root, rel), { force: true });
      logger.info({ path: rel }, 'removed a temp file left by an interrupted write');
    } catch (err) {
      logger.warn({ err, path: rel }, 'could not remove an abandoned temp file');
    }
  }
}

export async function refreshIndex(
  root: string,
  layout: Layout,
  db: IndexDb,
  logger: Logger,
  progress: ProgressReporter = noProgress,
): Promise<RefreshReport> {
  const started = performance.now();
  const temps: string[] = [];
  const files = await listNoteFiles(layout, root, (rel) => temps.push(rel));
  removeAbandonedTemps(root, temps, logger);
  const known = db.fileStates();
  const changed: ChangedFile[] = [];
  for (const file of files) {
    const absolutePath = path.join(root, file.relPath);
    let stats: fs.Stats;
    try {
      stats = fs.statSync(absolutePath);
    } catch {
      continue; // vanished between readdir and stat
    }
    const state = known.get(file.id);
    known.delete(file.id);
    if (state && state.size === stats.size && state.mtimeMs === stats.mtimeMs) continue;
    changed.push({ id: file.id, type: file.type, absolutePath, size: stats.size, mtimeMs: stats.mtimeMs, birthtimeMs: stats.birthtimeMs });
  }

  const skipped: RefreshReport['skipped'] = [];
  let indexed = 0;
  if (changed.length) progress.start('indexing notes', changed.length);
  for await (const batch of parsedBatches(changed, BATCH, logger)) {
    db.transaction(() => {
      for (const parsed of batch) {
        if (!parsed.ok) {
          if (parsed.remove) {
            logger.warn({ path: parsed.id, reason: parsed.reason }, 'skipping a note file that is not UTF-8 text');
            db.remove(parsed.id);
          }
          skipped.push({ path: parsed.id, reason: parsed.reason });
          continue;
        }
        if (parsed.warnings) logger.warn({ path: parsed.note.id, warnings: parsed.warnings }, 'note read with warnings');
        db.upsert(parsed.note);
        indexed++;
      }
    });
    progress.tick(batch.length);
  }
  if (changed.length) progress.stop();

  const removedIds = [...known.keys()];
  if (removedIds.length) db.transaction(() => removedIds.forEach((id) => db.remove(id)));
  const report = { scanned: files.length, indexed, removed: removedIds.length, skipped, ms: Math.round(performance.now() - started) };
  logger.debug(report, 'index refreshed');
  return report;
}
