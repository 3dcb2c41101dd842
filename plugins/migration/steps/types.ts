/**
 * A migration step: one named, idempotent conversion of a folder of notes. New migrations
 * (flint legacy vaults, a server-memory JSONL graph, moving notes between profiles) are new
 * steps in steps/, listed in steps/index.ts; the plugin, its CLI command and its tool stay.
 */
import type { Logger } from '../../../kernel/logger.js';
import type { ProgressReporter } from '../../../kernel/progress.js';

export interface StepInput {
  /** Absolute, existing folder. */
  rootDir: string;
  /** Report what would change; write nothing. */
  dryRun: boolean;
  progress: ProgressReporter;
  logger: Logger;
  /**
   * Given (with `dryRun`), the step lists here every file change the run would make, exact
   * text before and after, so a caller can apply them as one journalled operation.
   */
  plan?: FileChange[];
}

/** One file a step would write (`before` null: a new file) or remove (`text` null); paths relative to the root. */
export interface FileChange {
  path: string;
  before: string | null;
  text: string | null;
  /** For a removal: the file that replaces it, whose text must be in place first. */
  replacedBy?: { path: string; text: string };
  /** The file's modification time to set once written (v1's updatedAt). */
  updatedAt?: Date;
}

export interface MigratedFile {
  from: string;
  to: string;
  /** What could not be carried over exactly (an unknown field, a tag that cannot be inline, ...). */
  warnings?: string[];
}

export interface MigrationReport {
  step: string;
  rootDir: string;
  dryRun: boolean;
  migrated: MigratedFile[];
  skipped: Array<{ path: string; reason: string }>;
  /** Files left exactly as they were, with why. */
  errors: Array<{ path: string; reason: string }>;
}

export interface MigrationStep {
  id: string;
  description: string;
  run(input: StepInput): Promise<MigrationReport>;
}
