/**
 * How long a name or a path in a tool's arguments may be, so an over-long one is refused by
 * validation, naming the field and the limit, before anything is written or reaches the file
 * system. The common file systems' bounds: a name (one path segment) 255, a path 4,096; a title,
 * a line of text, 1,024. Schemas count characters where file systems count bytes: a name of 255
 * characters and more bytes meets the file system's refusal, also a validation_failed (errors.ts).
 * tools/list leaves these `maxLength`s out (tool.ts, decision 017): they tell a model nothing.
 */
import { ValidationError } from './errors.js';

export const NAME_MAX = 255;
export const PATH_MAX = 4_096;
export const TITLE_MAX = 1_024;

export const NAME_LIMITS: ReadonlySet<number> = new Set([NAME_MAX, PATH_MAX, TITLE_MAX]);

export type NameLimit = typeof NAME_MAX | typeof PATH_MAX | typeof TITLE_MAX;

const WHY: Record<NameLimit, string> = {
  [NAME_MAX]: "a file name's limit",
  [PATH_MAX]: "a path's limit",
  [TITLE_MAX]: "a title's limit",
};

/** The refusal's words (zod's own say "Too big: expected string to have <=255 characters"). */
export function limitMessage(max: NameLimit): string {
  return `at most ${grouped(max)} characters (${WHY[max]})`;
}

/**
 * 4096 as "4,096". Not toLocaleString: its first call loads ICU's locale data, 10–20 ms of CPU at
 * every served start, since the tools' schemas build these messages before the first answer.
 */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** A `vault_id` is looked up before validation: one too long is refused as validation would refuse it. */
export function checkVaultIdLength(vaultId: string): void {
  if (vaultId.length <= NAME_MAX) return;
  const issue = { field: 'vault_id', message: limitMessage(NAME_MAX) };
  throw new ValidationError(`Invalid vault_id: ${issue.message}; list_vaults names the vaults.`, {
    field: 'vault_id',
    fields: ['vault_id'],
    issues: [issue],
    limit: NAME_MAX,
  });
}
