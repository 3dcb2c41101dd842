/**
 * The full-text rows (`notes_fts`) kept beside each note row — or not: when another backend
 * serves the vault's searches (BackendContext.servesSearch false, the obsidian profile's
 * hybrid-search), nothing reads them, so no write pays for them. The choice is recorded in
 * `nk_meta`, so an index opened the other way next time is brought level at open: emptied when no
 * longer kept, refilled from the note rows (no file read) when kept again.
 */
import type Database from 'better-sqlite3';
import { foldLetters } from '../../toolkit/search/fold-letters.js';

/** Present (value `off`) while the full-text rows are not kept; absent means they are. */
const NOT_KEPT_KEY = 'full_text_not_kept';

/** What the full-text index holds of a note row: its folded title and content. */
export interface FullTextSource {
  rowid: number | bigint;
  id: string;
  title: string;
  content: string;
  type: string;
}

export class FullTextRows {
  private readonly insertRow: Database.Statement;
  private readonly deleteRow: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    /** Whether the rows are kept: false when another backend serves the searches. */
    readonly kept: boolean,
  ) {
    this.insertRow = db.prepare('INSERT INTO notes_fts (rowid, id, title, content, type) VALUES (?, ?, ?, ?, ?)');
    // notes_fts takes its content from `notes`: a row leaves it only by naming what it held.
    this.deleteRow = db.prepare(
      "INSERT INTO notes_fts (notes_fts, rowid, id, title, content, type) VALUES ('delete', ?, ?, ?, ?, ?)",
    );
  }

  /** Brings the stored rows in line with `kept` (an index last opened the other way); call at open and after a wipe. */
  align(): void {
    const wasKept = this.db.prepare('SELECT 1 FROM nk_meta WHERE key = ?').pluck().get(NOT_KEPT_KEY) === undefined;
    if (wasKept === this.kept) return;
    this.db
      .transaction(() => {
        this.db.exec("INSERT INTO notes_fts(notes_fts) VALUES('delete-all')");
        if (this.kept) {
          // In pages: a connection cannot write while it iterates, and a whole vault's text at once is too much.
          const page = this.db.prepare(
            'SELECT rowid, id, title, content, type FROM notes WHERE rowid > ? ORDER BY rowid LIMIT 500',
          );
          for (
            let rows = page.all(0) as FullTextSource[];
            rows.length;
            rows = page.all(rows.at(-1)!.rowid) as FullTextSource[]
          ) {
            for (const row of rows) this.add(row);
          }
          this.db.prepare('DELETE FROM nk_meta WHERE key = ?').run(NOT_KEPT_KEY);
        } else {
          this.db
            .prepare("INSERT INTO nk_meta (key, value) VALUES (?, 'off') ON CONFLICT(key) DO NOTHING")
            .run(NOT_KEPT_KEY);
        }
      })
      .immediate();
  }

  /** Folded words in the index, the note's own text in `notes` (what highlight and snippet show). */
  add(row: FullTextSource): void {
    if (this.kept) this.insertRow.run(row.rowid, row.id, foldLetters(row.title), foldLetters(row.content), row.type);
  }

  drop(row: FullTextSource): void {
    if (this.kept) this.deleteRow.run(row.rowid, row.id, foldLetters(row.title), foldLetters(row.content), row.type);
  }
}
