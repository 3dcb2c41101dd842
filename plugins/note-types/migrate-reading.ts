/**
 * The `reading` type as seed 000 (and `init` before this fix) wrote it asks for a required
 * `type` field, which every note already has as its note type: no reading note could be stored
 * as the schema asked. At open, a `reading/_description.md` whose schema still has that exact
 * default line gets it renamed to `reading_type` (the rest of the file is kept byte for byte).
 * A line the user changed is left alone; the schema hook then explains the clash when a note
 * sets `type` (plugins/schema/hook.ts).
 */
import type { VaultFiles } from '../../kernel/backend.js';
import { ContentHashMismatchError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import { contentHash } from '../../toolkit/hash.js';
import { OLD_READING_TYPE_LINE, READING_TYPE_LINE } from './defaults.js';

const FILE = 'reading/_description.md';

/** The file's text with the old line renamed, or undefined when there is nothing to do. */
export function renameReadingTypeLine(text: string): string | undefined {
  const lines = text.split('\n');
  // A schema that already has a reading_type keeps its own: renaming would define it twice.
  if (lines.some((l) => /^\s*[-*]\s+reading_type\s*:/.test(l))) return undefined;
  let changed = false;
  const out = lines.map((line) => {
    const match = /^(\s*[-*]\s+)(.*?)(\r?)$/.exec(line);
    if (match?.[2]?.trim() !== OLD_READING_TYPE_LINE) return line;
    changed = true;
    return `${match[1]}${READING_TYPE_LINE}${match[3]}`;
  });
  return changed ? out.join('\n') : undefined;
}

export async function migrateReadingType(files: VaultFiles, logger: Logger, readOnly: boolean): Promise<void> {
  const text = await files.readText(FILE).catch(() => undefined);
  if (text === undefined) return;
  const next = renameReadingTypeLine(text);
  if (next === undefined) return;
  if (readOnly) {
    logger.warn(
      { file: FILE },
      `${FILE}: its schema's field 'type' is the note type itself, so no note can set it; rename it to reading_type (read-only: not changed)`,
    );
    return;
  }
  try {
    await files.writeText(FILE, next, { expectedHash: contentHash(text) });
    logger.info(
      { file: FILE },
      `${FILE}: schema field 'type' renamed to 'reading_type' (the note type already uses 'type')`,
    );
  } catch (err) {
    if (!(err instanceof ContentHashMismatchError)) throw err; // changed meanwhile: left as it now is
  }
}
