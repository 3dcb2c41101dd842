/**
 * The operation journal's entries (decision 025). Before a multi-note operation changes anything,
 * its whole plan — every note, the hash it must have, the state it had and the state it gets — is
 * written durably (plan-runner.ts); then the changes are applied; then the entry is closed. An
 * entry still open at the next start is finished where every note is still in its planned before
 * or after state (roll forward), else the notes it had changed are put back (roll back:
 * journal-recovery.ts). The store keeps the entries opaque (kernel/journal.ts).
 */
import type { JournalStorage } from '../../kernel/journal.js';
import type { Metadata, NewNote, NoteChange } from '../../kernel/note.js';
import type { NoteStore } from '../../kernel/note-store.js';

/** What a note was before an operation changed it: enough to recognise it and to put it back. */
export interface NoteState {
  hash: string;
  title: string;
  content: string;
  metadata: Metadata;
  type?: string;
  tags: string[];
  path?: string;
  /** The note's file byte for byte (its hash is `hash`), where the store keeps files: an undo writes it back as it was (journal-bytes.ts). */
  text?: string;
}

export type JournalStep =
  /** `change` is what the store is asked to write (hooks already applied, metadata complete). */
  | { kind: 'update'; id: string; before: NoteState; change: NoteChange }
  | { kind: 'create'; input: NewNote }
  | { kind: 'delete'; id: string; before: NoteState }
  /**
   * A note moved to another type (a store with `types`): `to` is the id it gets there; `change`
   * (an undo's) is then written exactly, so a note moved back is its old file again.
   */
  | { kind: 'move'; id: string; before: NoteState; type: string; to: string; change?: NoteChange }
  /**
   * A note file's exact text (a store with `files`: frontmatter as the user wrote it, no keys
   * added): `before` null, a new file; `text` null, the file removed. Its after hash is known.
   * `file: true`: a plain file of the vault the store may not read as a note (a migration's v1
   * entry): written and removed through `files` alone, no note announced. `replacedBy`: a file
   * removed only while the file replacing it is in place with that hash (its create may fail).
   */
  | { kind: 'text'; path: string; before: FileText | null; text: string | null; file?: true; replacedBy?: ReplacedBy };

export interface ReplacedBy {
  path: string;
  hash: string;
}

export interface FileText {
  text: string;
  hash: string;
}

/** What became of one step, as far as the process that ran it got to record. */
export interface StepResult {
  id?: string;
  hash?: string;
  error?: string;
}

export type JournalState = 'pending' | 'done' | 'rolled-forward' | 'rolled-back' | 'undone';

export interface JournalRecovery {
  at: string;
  outcome: 'rolled-forward' | 'rolled-back';
  /** One line per note the recovery could not put in either state (changed by someone else). */
  problems: string[];
  applied: number;
}

export interface JournalEntry {
  id: string;
  /** The tool (or kernel call) that asked for the operation. */
  operation: string;
  /** Who asked: the MCP client (`name version`), `cli`, or `library` (kernel/caller.ts). */
  by?: string;
  /** For an undo: the entry it undid. */
  undoes?: string;
  at: string;
  state: JournalState;
  steps: JournalStep[];
  results?: StepResult[];
  recovery?: JournalRecovery;
}

/** A store's journal as the toolkit uses it: its entries are written here alone (plan runner, recovery, undo). */
export type OperationJournal = JournalStorage<JournalEntry>;

/** The store's journal, its entries read back as written; undefined where the store keeps none. */
export function operationJournal(store: NoteStore): OperationJournal | undefined {
  return store.journal as OperationJournal | undefined;
}
