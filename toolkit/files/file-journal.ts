/**
 * The operation journal in files (decision 025): `<metaDir>/journal/<entry>.json` holds the plan
 * (written atomically and fsync'd before any note changes) and, once closed, the results;
 * `<entry>.log` collects one JSON line per step as it completes, which tells a recovery which
 * notes a batch create had already made. Closed entries are kept for undo within a window
 * (count and age) and pruned when a new entry begins. Entries are stored as given (their model is
 * toolkit/plans/journal.ts); only `id`, `state` and `results` are read here.
 */
import fs from 'node:fs';
import { z } from 'zod';
import path from 'node:path';
import type { JournalRecord, JournalStorage } from '../../kernel/journal.js';
import { writeFileAtomic } from './atomic-write.js';
import { isAbandonedTemp } from './temp-sweep.js';

export interface JournalWindow {
  /** Closed entries kept at most (newest first). */
  keep: number;
  /** Closed entries older than this are dropped. */
  maxAgeMs: number;
}

export const DEFAULT_JOURNAL_WINDOW: JournalWindow = { keep: 100, maxAgeMs: 7 * 24 * 3600 * 1000 };

/** The backends' `journal` option: how many closed operations stay undoable, and for how long. */
export const journalWindowOption = z
  .object({
    keep: z
      .number()
      .int()
      .min(0)
      .default(100)
      .describe('closed operations kept for list_operations / undo_operation, newest first'),
    maxAgeDays: z.number().min(0).default(7).describe('closed operations older than this are dropped'),
  })
  .strict()
  .default({ keep: 100, maxAgeDays: 7 })
  .describe("the operation journal's undo window (decision 025)");

export function journalWindow(option: z.output<typeof journalWindowOption>): JournalWindow {
  return { keep: option.keep, maxAgeMs: option.maxAgeDays * 24 * 3600 * 1000 };
}

/** One step's outcome as the entry records it. */
type StepResult<E extends JournalRecord> = NonNullable<E['results']>[number];

export class FileJournal<E extends JournalRecord = JournalRecord> implements JournalStorage<E> {
  constructor(
    readonly dir: string,
    private readonly window: JournalWindow = DEFAULT_JOURNAL_WINDOW,
  ) {}

  async begin(entry: E): Promise<void> {
    fs.mkdirSync(this.dir, { recursive: true });
    this.prune();
    await writeFileAtomic(this.planFile(entry.id), JSON.stringify(entry));
  }

  progress(entryId: string, step: number, result: StepResult<E>): void {
    fs.appendFileSync(this.logFile(entryId), `${JSON.stringify({ step, ...result })}\n`);
  }

  async finish(entry: E): Promise<void> {
    await writeFileAtomic(this.planFile(entry.id), JSON.stringify(entry));
    fs.rmSync(this.logFile(entry.id), { force: true });
  }

  async unfinished(): Promise<E[]> {
    this.sweepTemps();
    return this.read()
      .filter((e) => e.state === 'pending')
      .map((e) => this.withProgress(e))
      .reverse();
  }

  async list(): Promise<E[]> {
    return this.read();
  }

  /** Every readable entry, newest first (entry ids sort by time). */
  private read(): E[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    const entries: E[] = [];
    for (const name of names.sort().reverse()) {
      try {
        entries.push(JSON.parse(fs.readFileSync(path.join(this.dir, name), 'utf8')) as E);
      } catch {
        // An entry is written by rename: an unreadable one was never a plan, nothing to do.
      }
    }
    return entries;
  }

  private withProgress(entry: E): E {
    const results: Array<StepResult<E>> = entry.results ? [...entry.results] : [];
    let text = '';
    try {
      text = fs.readFileSync(this.logFile(entry.id), 'utf8');
    } catch {
      return entry;
    }
    for (const line of text.split('\n')) {
      try {
        const { step, ...result } = JSON.parse(line) as StepResult<E> & { step: number };
        results[step] = result;
      } catch {
        // The last line of a killed writer may be cut short.
      }
    }
    return { ...entry, results };
  }

  /** A plan write killed before its rename leaves a temp file here. */
  private sweepTemps(): void {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const stats = fs.statSync(path.join(this.dir, name), { throwIfNoEntry: false });
      if (stats && isAbandonedTemp(name, stats.mtimeMs)) fs.rmSync(path.join(this.dir, name), { force: true });
    }
  }

  /**
   * Drops closed entries past the window. An entry holds its notes' texts (a big rename: about a
   * megabyte), so only those past it by rank or by age — both read from the name, which starts
   * with the entry's time — are read, to spare a pending one.
   */
  private prune(): void {
    this.sweepTemps();
    const now = Date.now();
    let names: string[];
    try {
      names = fs
        .readdirSync(this.dir)
        .filter((n) => n.endsWith('.json'))
        .sort()
        .reverse();
    } catch {
      return;
    }
    names.forEach((name, rank) => {
      const file = path.join(this.dir, name);
      if (rank < this.window.keep && now - startedAt(name) <= this.window.maxAgeMs) return;
      try {
        if ((JSON.parse(fs.readFileSync(file, 'utf8')) as JournalRecord).state === 'pending') return;
      } catch {
        // unreadable: never a plan (written by rename), nothing to spare
      }
      fs.rmSync(file, { force: true });
      fs.rmSync(this.logFile(name.slice(0, -'.json'.length)), { force: true });
    });
  }

  private planFile(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  private logFile(id: string): string {
    return path.join(this.dir, `${id}.log`);
  }
}

/** An entry's start from its name (newEntryId: the ISO time without separators); 0 if unreadable. */
function startedAt(name: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z/.exec(name);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!) : 0;
}
