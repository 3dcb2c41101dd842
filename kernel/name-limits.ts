/**
 * How long a name or a path in a tool's arguments may be: one place for every schema where one
 * goes (issue 32), so an over-long argument is refused by validation — `validation_failed` naming
 * the field and the limit, before a handler runs and anything is written — instead of reaching
 * the file system as ENAMETOOLONG, or being stored (a 100,000-character vault name was).
 *
 * The bounds are the common file systems' (ext4, APFS, NTFS): a name (one path segment: a note
 * type, a file or folder name, a vault id) is at most 255, a path at most 4,096. JSON Schema
 * counts characters where file systems count bytes, so a name of 255 characters that needs more
 * than 255 bytes still reaches the file system, whose refusal is a validation_failed naming the
 * path (kernel/errors.ts). A title is a line of text, not a file name (its file name is a slug
 * cut shorter), bounded at 1,024. The schemas' fields are built in toolkit/tool-fields.ts.
 *
 * tools/list leaves these `maxLength`s out (kernel/tool.ts, decision 017): limits no one means to
 * reach cost every client bytes and tell a model nothing.
 */
import { ValidationError } from './errors.js';

export const NAME_MAX = 255;
export const PATH_MAX = 4_096;
export const TITLE_MAX = 1_024;

export const NAME_LIMITS: ReadonlySet<number> = new Set([NAME_MAX, PATH_MAX, TITLE_MAX]);

export type NameLimit = typeof NAME_MAX | typeof PATH_MAX | typeof TITLE_MAX;

const WHY: Record<NameLimit, string> = { [NAME_MAX]: "a file name's limit", [PATH_MAX]: "a path's limit", [TITLE_MAX]: "a title's limit" };

/** The refusal's words (zod's own say "Too big: expected string to have <=255 characters"). */
export function limitMessage(max: NameLimit): string {
  return `at most ${max.toLocaleString('en')} characters (${WHY[max]})`;
}

/**
 * A `vault_id` is looked up before the tool's arguments are validated (the router opens the vault
 * it names, the vault checks it is the one asked for): one too long to be a vault's is refused
 * there, as validation would, rather than quoted whole in a not_found.
 */
export function checkVaultIdLength(vaultId: string): void {
  if (vaultId.length <= NAME_MAX) return;
  const issue = { field: 'vault_id', message: limitMessage(NAME_MAX) };
  throw new ValidationError(`Invalid vault_id: ${issue.message}; list_vaults names the vaults.`, { field: 'vault_id', fields: ['vault_id'], issues: [issue], limit: NAME_MAX });
}
