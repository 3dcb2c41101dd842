/**
 * The operation journal in files (decision 025): `<metaDir>/journal/<entry>.json` holds the plan
 * (written atomically and fsync'd before any note changes) and, once closed, the results;
 * `<entry>.log` collects one JSON line per step as it completes, which tells a recovery which
 * notes a batch create had already made. Closed entries are kept for undo within a window
 * (count and age) and pruned when a new entry begins.
 */
import fs from 'node:fs';
import { z } from 'zod';
import path from 'node:path';
import type { JournalEntry, JournalStorage, StepResult } from '../../kernel/journal.js';
import { writeFileAtomic } from '../../kernel/util/atomic-write.js';
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
    keep: z.number().int().min(0).default(100).describe('closed operations kept for list_operations / undo_operation, newest first'),
    maxAgeDays: z.number().min(0).default(7).describe('closed operations older than this are dropped'),
  })
  .strict()
  .default({ keep: 100, maxAgeDays: 7 })
  .describe('the operation journal\'s undo window (decision 025)');

export function journalWindow(option: z.output<typeof journalWindowOption>): JournalWindow {
  return { keep: option.keep, maxAgeMs: option.maxAgeDays * 24 * 3600 * 1000 };
}

export class FileJournal implements JournalStorage {
  constructor(
    readonly dir: string,
    private readonly window: JournalWindow = DEFAULT_JOURNAL_WINDOW,
  ) {}

  async begin(entry: JournalEntry): Promise<void> {
    fs.mkdirSync(this.dir, { recursive: true });
    this.prune();
    await writeFileAtomic(this.planFile(entry.id), JSON.stringify(entry));
  }

  progress(entryId: string, step: number, result: StepResult): void {
    fs.appendFileSync(this.logFile(entryId), `${JSON.stringify({ step, ...result })}\n`);
  }

  async finish(entry: JournalEntry): Promise<void> {
    await writeFileAtomic(this.planFile(entry.id), JSON.stringify(entry));
    fs.rmSync(this.logFile(entry.id), { force: true });
  }

  async unfinished(): Promise<JournalEntry[]> {
    this.sweepTemps();
    return this.read()
      .filter((e) => e.state === 'pending')
      .map((e) => this.withProgress(e))
      .reverse();
  }

  async list(): Promise<JournalEntry[]> {
    return this.read();
  }

  /** Every readable entry, newest first (entry ids sort by time). */
  private read(): JournalEntry[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    const entries: JournalEntry[] = [];
    for (const name of names.sort().reverse()) {
      try {
        entries.push(JSON.parse(fs.readFileSync(path.join(this.dir, name), 'utf8')) as JournalEntry);
      } catch {
        // An entry is written by rename: an unreadable one was never a plan, nothing to do.
      }
    }
    return entries;
  }

  private withProgress(entry: JournalEntry): JournalEntry {
    const results: StepResult[] = entry.results ? [...entry.results] : [];
    let text = '';
    try {
      text = fs.readFileSync(this.logFile(entry.id), 'utf8');
    } catch {
      return entry;
    }
    for (const line of text.split('\n')) {
      try {
        const { step, ...result } = JSON.parse(line) as StepResult & { step: number };
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

  private prune(): void {
    this.sweepTemps();
    const closed = this.read().filter((e) => e.state !== 'pending');
    const now = Date.now();
    closed.forEach((entry, rank) => {
      if (rank < this.window.keep && now - Date.parse(entry.at) <= this.window.maxAgeMs) return;
      fs.rmSync(this.planFile(entry.id), { force: true });
      fs.rmSync(this.logFile(entry.id), { force: true });
    });
  }

  private planFile(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  private logFile(id: string): string {
    return path.join(this.dir, `${id}.log`);
  }
}
