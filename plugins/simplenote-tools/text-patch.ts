/**
 * Seed 003's line patch: deletions (high → low) and modifications address lines of the text the
 * caller read (its local_version); additions then go in low → high, each line_number being the
 * line the new text takes in the result. Every line number is checked before anything changes,
 * and the failing operation is named (`text_patch.2.line_number`).
 *
 * A modification below a deletion is refused: the seed numbers lines in the text that was read
 * but applies deletions first, so "line 5" names one line in one reading and the next in the
 * other. Guessing would edit the wrong line without a word; the refusal says how to send it.
 */
import { invalid } from './errors.js';
import type { PatchOperation } from './schemas.js';

export function applyTextPatch(text: string, patch: readonly PatchOperation[]): string {
  const lines = text.split('\n');
  const deleted = new Set<number>();
  const modified = new Map<number, string>();
  patch.forEach((op, i) => {
    const at = `text_patch.${i}`;
    if (op.operation !== 'deletion' && op.value === undefined)
      throw invalid(`${at}.value`, `an ${op.operation} needs a value.`);
    if (op.operation === 'addition') return;
    if (op.line_number > lines.length)
      throw invalid(
        `${at}.line_number`,
        `line ${op.line_number} is past the end: the text of this local_version has ${lines.length} line(s).`,
      );
    const index = op.line_number - 1;
    if (deleted.has(index) || modified.has(index))
      throw invalid(
        `${at}.line_number`,
        `line ${op.line_number} is already deleted or modified by an earlier operation.`,
      );
    if (op.operation === 'deletion') deleted.add(index);
    else modified.set(index, op.value!);
  });
  const firstDeleted = Math.min(...deleted);
  patch.forEach((op, i) => {
    if (op.operation !== 'modification' || op.line_number - 1 <= firstDeleted) return;
    throw invalid(
      `text_patch.${i}.line_number`,
      `a modification at line ${op.line_number} below a deletion at line ${firstDeleted + 1} is ambiguous (seed 003 numbers lines in the text you read but deletes first): send the deletions and the modifications in two saves, or the whole text.`,
    );
  });
  const result = lines.flatMap((line, index) => (deleted.has(index) ? [] : [modified.get(index) ?? line]));
  const additions = patch.map((op, i) => ({ op, i })).filter(({ op }) => op.operation === 'addition');
  additions.sort((a, b) => a.op.line_number - b.op.line_number || a.i - b.i);
  for (const { op, i } of additions) {
    if (op.line_number > result.length + 1)
      throw invalid(
        `text_patch.${i}.line_number`,
        `line ${op.line_number} is past the end: after the deletions and earlier additions the text has ${result.length} line(s), so an addition goes at line ${result.length + 1} at most.`,
      );
    result.splice(op.line_number - 1, 0, op.value!);
  }
  return result.join('\n');
}
