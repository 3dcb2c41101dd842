import { z } from 'zod';
import { ConflictError, ContentHashMismatchError, toNotekernelError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool.js';
import { vaultIdField } from '../../../kernel/vault-id.js';
import { LINK_INDEX, LINKS, type LinkRewriteReport } from '../../links/service.js';
import { withWarnings } from '../schema-warnings.js';

export const renameNoteTool = defineTool({
  name: 'rename_note',
  description:
    "Change a note's title. Its id and filename stay the same, so links by id keep working; [[Old Title]] wikilinks in other notes are rewritten when the links plugin is loaded.",
  input: z.object({
    identifier: z.string().min(1).describe('Note id, e.g. "projects/website-redesign.md"'),
    new_title: z.string().trim().min(1).regex(/^[^\r\n]*$/, 'a title is one line').describe('The new title'),
    content_hash: z
      .string({ error: 'content_hash is required: read the note (get_note) and pass its content_hash' })
      .min(1)
      .describe('content_hash from the last read of the note'),
    vault_id: vaultIdField,
  }),
  output: z.object({
    success: z.boolean(),
    message: z.string(),
    identifier: z.string(),
    old_title: z.string(),
    new_title: z.string(),
    filename: z.string(),
    content_hash: z.string(),
    links_preserved: z.boolean(),
    wikilinks_updated: z.boolean(),
    notes_with_updated_wikilinks: z.number(),
    total_wikilinks_updated: z.number(),
    not_rewritten: z.array(z.unknown()).optional(),
    warnings: z.array(z.string()).optional(),
  }),
  annotations: { title: 'Rename note', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    const before = await ctx.notes.require(args.identifier);
    if (before.contentHash !== args.content_hash) throw new ContentHashMismatchError(before.contentHash, args.content_hash, { identifier: before.id });
    // Two notes with one title would make [[Title]] ambiguous: refuse, naming the owner.
    const owners = ((await ctx.tryResolve(LINK_INDEX)?.titleOwners(args.new_title)) ?? []).filter((id) => id !== before.id);
    if (owners.length) {
      throw new ConflictError(`A note titled '${args.new_title}' already exists: ${owners[0]}. Choose another title.`, {
        identifier: before.id,
        conflicting_id: owners[0],
        new_title: args.new_title,
      });
    }
    const note = await ctx.notes.update(before.id, { title: args.new_title }, args.content_hash, before);
    const warnings: string[] = [];
    let report: LinkRewriteReport | undefined;
    const links = ctx.tryResolve(LINKS);
    if (!links) warnings.push('Wikilinks in other notes were not rewritten: the links plugin is not loaded.');
    else if (before.title !== note.title) {
      try {
        report = await links.rewriteAfterRename(note.id, before.title, note.title);
      } catch (err) {
        // The rename itself is done and stays done; the agent learns which part did not happen.
        warnings.push(`The note was renamed, but rewriting wikilinks failed: ${toNotekernelError(err).message}`);
      }
    }
    const linksUpdated = report?.links_updated ?? 0;
    return {
      success: true,
      message: `Note renamed from '${before.title}' to '${note.title}'${linksUpdated ? `; updated ${linksUpdated} wikilinks in ${report?.notes_updated ?? 0} notes` : ''}.`,
      identifier: note.id,
      old_title: before.title,
      new_title: note.title,
      filename: note.filename,
      content_hash: note.contentHash,
      links_preserved: true,
      wikilinks_updated: linksUpdated > 0,
      notes_with_updated_wikilinks: report?.notes_updated ?? 0,
      total_wikilinks_updated: linksUpdated,
      ...(report?.not_rewritten.length ? { not_rewritten: report.not_rewritten } : {}),
      ...withWarnings(warnings),
    };
  },
});
