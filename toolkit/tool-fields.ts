/**
 * Arguments many tools share, each with one short wording (decision 017: tools/list is what a
 * client, and the model behind it, reads before its first call). A description says only what
 * the name, type, bounds and `default` of the JSON schema do not: never "(default 50)" beside
 * `"default": 50`.
 */
import { z } from 'zod';
import { limitMessage, NAME_MAX, PATH_MAX, TITLE_MAX, type NameLimit } from '../kernel/name-limits.js';

/** A string bounded as kernel/name-limits.ts says, with a sentence naming the bound. */
function bounded(max: NameLimit): z.ZodString {
  return z.string().max(max, limitMessage(max));
}

/** One path segment: a note type, a file or folder name, a vault id. */
export const nameString = (): z.ZodString => bounded(NAME_MAX);

/** A path, or a reference that may be one (a note id, title or filename). */
export const pathString = (): z.ZodString => bounded(PATH_MAX);

/** A note's title. */
export const titleString = (): z.ZodString => bounded(TITLE_MAX);

/**
 * The optional `vault_id` every note tool accepts (seed 000; Vault.call checks it). It
 * carries no description: the same line on every tool was the largest repeat in tools/list
 * (decision 017), and what it would say — a call without it goes to the current vault — is said
 * once, by the vault tools (list_vaults, switch_vault).
 */
export const vaultIdField = nameString().min(1).optional();

/** A note by id only. */
export const noteIdField = pathString().min(1).describe('Note id, "type/filename.md"');

/** A note by id, title or filename, resolved the way wikilinks resolve. */
export const noteRefField = pathString().min(1).describe('Note id, title or filename');

/** The optimistic lock of a write: the hash the caller's last read returned. */
export const CONTENT_HASH = 'content_hash of your last read';

/** Seed 000's deletion safety: vault config `require_confirmation`, on unless turned off. */
export const confirmField = z.boolean().default(false).describe('Must be true unless the vault config waives it');

/** A page size: its bounds and default say all, so no description. */
export const limitField = (fallback: number, max: number) => z.number().int().min(1).max(max).default(fallback);

/** Paging: answers say `has_more`. */
export const offsetField = z.number().int().min(0).default(0);

/** A journalled operation's dry run: NoteService.previewPlan's answer. */
export const planDryRunField = (scope = '') =>
  z.boolean().default(false).describe(`${scope}true: answer the plan (a diff per note), write nothing`);

/** A repair that previews unless told to write. */
export const previewFirstField = z.boolean().default(true).describe('true: list the changes only; false: write them');
