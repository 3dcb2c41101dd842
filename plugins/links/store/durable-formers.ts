/**
 * Former names (the titles, stems and paths a note gave up, so links written against them still
 * resolve) cannot be rebuilt from the files: after an interrupted rename plus a lost index they
 * were gone, and links to the former title broke for good. So every change to them is also
 * written, atomically, to a small JSON file beside the index, and an index found without any
 * (lost, rebuilt) takes them back from that file.
 */
import fs from 'node:fs';
import type { Logger } from '../../../kernel/logger.js';
import { writeFileAtomic } from '../../../toolkit/files/atomic-write.js';
import type { LinkStore } from './types.js';

export interface DurableFormers extends LinkStore {
  /** Takes the former names back from the file when the store has none (a new or rebuilt index). */
  restore(): void;
  /** Resolves when the file holds every change made so far. */
  flushed(): Promise<void>;
}

export function withDurableFormers(store: LinkStore, file: string, logger: Logger): DurableFormers {
  let writing: Promise<void> = Promise.resolve();
  let latest: Record<string, string> | undefined;
  const persist = () => {
    // The snapshot is taken now, with the change (the store may be closed by the time it is written).
    const first = latest === undefined;
    latest = Object.fromEntries(store.formers());
    if (!first) return; // a write is queued already and will carry this snapshot
    // One write after the current one, carrying every change made until it starts.
    writing = writing.then(async () => {
      const formers = latest;
      latest = undefined;
      try {
        await writeFileAtomic(file, `${JSON.stringify({ version: 1, formers }, null, 1)}\n`);
      } catch (err) {
        logger.warn({ err, file }, 'links: former names could not be saved beside the index');
      }
    });
  };
  const changing =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A): void => {
      fn(...args);
      persist();
    };
  return {
    ...store,
    renameNote: changing(store.renameNote.bind(store)),
    setFormer: changing(store.setFormer.bind(store)),
    dropFormersFor: changing(store.dropFormersFor.bind(store)),
    dropAllFormers: changing(store.dropAllFormers.bind(store)),
    restore() {
      if (store.formers().size > 0) {
        if (!fs.existsSync(file)) persist(); // names recorded before this file existed
        return;
      }
      let saved: Record<string, unknown>;
      try {
        saved = (JSON.parse(fs.readFileSync(file, 'utf8')) as { formers?: Record<string, unknown> }).formers ?? {};
      } catch {
        return; // no file yet, or unreadable: nothing to take back
      }
      const entries = Object.entries(saved).filter((e): e is [string, string] => typeof e[1] === 'string');
      store.transaction(() => entries.forEach(([key, id]) => store.setFormer(key, id)));
      if (entries.length)
        logger.info({ restored: entries.length }, 'links: former names taken back from the file beside the index');
    },
    flushed: () => writing,
  };
}
