/**
 * What a file another program wrote (an editor, `git pull`, `git checkout`) means for the entry
 * index: a written entry, a deleted one, or nothing. A file moved to another name keeps its id:
 * only the last file of an id going away is a delete. The caller holds the id's lock.
 */
import type { ExternalChange } from '../../kernel/backend.js';
import type { Logger } from '../../kernel/logger.js';
import { readEntryFile, toNote, toSummary, type EntryRecord, type EntryTimes } from './entry-file.js';
import type { EntryIndex } from './entry-index.js';

export async function readExternalChange(
  root: string,
  index: EntryIndex,
  rel: string,
  id: string,
  logger: Logger,
  timesOf: (record: EntryRecord) => EntryTimes,
): Promise<ExternalChange | undefined> {
  const known = index.all(id).find((r) => r.relPath === rel);
  const read = await readEntryFile(root, rel, id);
  if (read.ok) {
    if (known?.contentHash === read.record.contentHash) return undefined;
    const previous = index.primary(id);
    index.put(read.record);
    const note = toNote(read.record, read.parsed, timesOf(read.record));
    return {
      kind: 'written',
      note,
      ...(previous ? { previous: toSummary(previous, timesOf(previous)) } : {}),
    };
  }
  if (!('missing' in read)) {
    logger.warn({ path: rel, reason: read.reason }, 'a changed entry file cannot be read; leaving it as it was');
    return undefined;
  }
  if (!known) return undefined;
  index.removePath(id, rel);
  if (index.has(id)) return undefined;
  return { kind: 'deleted', id, previous: toSummary(known, timesOf(known)) };
}
