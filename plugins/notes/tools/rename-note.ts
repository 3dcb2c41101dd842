import { z } from 'zod';
import { ContentHashMismatchError, toNotekernelError } from '../../../kernel/errors.js';

import { defineTool } from '../../../kernel/tool.js';
import { LINK_INDEX, LINKS, type LinkRewriteReport, type RenamePlan } from '../../links/service.js';
import { withWarnings } from '../schema-warnings.js';
import { nameKeyOf } from '../note-ref.js';
import { bool, modesOutput, num, planPreviewOutput, str, warningsOutput } from '../../../toolkit/tool-output.js';
import { CONTENT_HASH, noteIdField, planDryRunField, titleString, vaultIdField } from '../../../toolkit/tool-fields.js';
import { applyPlan, previewPlan, type PlanItem } from '../../../toolkit/plans/plan-runner.js';

export const renameNoteTool = defineTool({
  name: 'rename_note',
  description:
    "Change a note's title; id and filename stay, so links by id hold. [[Old Title]] wikilinks elsewhere are rewritten (links plugin).",
  input: z.object({
    identifier: noteIdField,
    new_title: titleString()
      .trim()
      .min(1)
      .regex(/^[^\r\n]*$/, 'a title is one line')
      .describe('One line'),
    content_hash: z
      .string({ error: 'content_hash is required: read the note (get_note) and pass its content_hash' })
      .min(1)
      .describe(CONTENT_HASH),
    dry_run: planDryRunField(),
    vault_id: vaultIdField,
  }),
  output: modesOutput(
    {
      success: bool,
      message: str,
      identifier: str,
      old_title: str,
      new_title: str,
      filename: str,
      filename_unchanged: bool,
      content_hash: str,
      links_preserved: bool,
      broken_links_resolved: num,
      wikilinks_updated: bool,
      notes_with_updated_wikilinks: num,
      total_wikilinks_updated: num,
      not_rewritten: z.array(z.object({ id: str, reason: str })),
      operation_id: str,
    },
    warningsOutput,
    planPreviewOutput,
  ),
  annotations: {
    title: 'Rename note',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const before = await ctx.notes.require(args.identifier);
    if (before.contentHash !== args.content_hash)
      throw new ContentHashMismatchError(before.contentHash, args.content_hash, { identifier: before.id });
    // Seed 000: a rename changes the title only, the filename and id stay, so two notes may share
    // a title (flint-note allows it). [[Title]] then names the first of them: the agent is told.
    const index = ctx.tryResolve(LINK_INDEX);
    const owners = ((await index?.titleOwners(args.new_title)) ?? []).filter((id) => id !== before.id);
    const warnings: string[] = [];
    if (owners.length) {
      warnings.push(
        `Another note is titled '${args.new_title}' (${owners.join(', ')}): [[${args.new_title}]] links resolve to one of them; link by id ([[${before.id.replace(/\.md$/, '')}]]) to name this one.`,
      );
    }
    const wanted = nameKeyOf(args.new_title);
    const brokenBefore =
      index && !owners.length
        ? (await index.broken().catch(() => [])).filter((l) => nameKeyOf(l.target_title) === wanted).length
        : 0;
    const links = ctx.tryResolve(LINKS);
    let plan: RenamePlan = { rewrites: [], not_rewritten: [] };
    if (!links) warnings.push('Wikilinks in other notes were not rewritten: the links plugin is not loaded.');
    else if (before.title !== args.new_title) {
      try {
        plan = await links.planRename(before.id, before.title, args.new_title);
      } catch (err) {
        // The rename itself still happens; the agent learns which part did not.
        warnings.push(`The note was renamed, but rewriting wikilinks failed: ${toNotekernelError(err).message}`);
      }
    }
    // The title and every rewrite are one journalled operation: a crash leaves all or none.
    const own = plan.rewrites.find((r) => r.id === before.id);
    const rewrites = plan.rewrites.filter((r) => r.id !== before.id);
    const items: PlanItem[] = [
      {
        kind: 'update',
        id: before.id,
        change: { title: args.new_title, ...(own ? { content: own.content } : {}) },
        expectedHash: args.content_hash,
        previous: before,
      },
      ...rewrites.map((r) => ({
        kind: 'update' as const,
        id: r.id,
        change: { content: r.content },
        expectedHash: r.note.contentHash,
        previous: r.note,
      })),
    ];
    if (args.dry_run)
      return {
        ...(await previewPlan(ctx.notes, 'rename_note', items)),
        ...(plan.not_rewritten.length ? { not_rewritten: plan.not_rewritten } : {}),
        ...withWarnings(warnings),
      };
    ctx.progress.start('renaming and rewriting links', items.length);
    const applied = await applyPlan(ctx.notes, 'rename_note', items);
    ctx.progress.stop();
    const [renamed, ...rewritten] = applied.results;
    if (renamed?.status !== 'fulfilled') throw renamed?.reason;
    const note = renamed.value;
    const done = [...(own ? [own] : []), ...rewrites.filter((_, k) => rewritten[k]?.status === 'fulfilled')];
    const report: LinkRewriteReport = {
      links_updated: done.reduce((n, r) => n + r.edits.length, 0),
      notes_updated: done.length,
      not_rewritten: [
        ...plan.not_rewritten,
        ...rewrites.flatMap((r, k) => {
          const result = rewritten[k];
          return result?.status === 'rejected' ? [{ id: r.id, reason: rewriteFailure(result.reason) }] : [];
        }),
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
    };
    const linksUpdated = report.links_updated ?? 0;
    // Links to the new title that were broken and now reach this note (seed 000: resolved on rename).
    const brokenResolved =
      brokenBefore && (await index?.resolve(args.new_title).catch(() => null)) === note.id ? brokenBefore : 0;
    return {
      success: true,
      message: `Note renamed from '${before.title}' to '${note.title}'${linksUpdated ? `; updated ${linksUpdated} wikilinks in ${report.notes_updated ?? 0} notes` : ''}.`,
      identifier: note.id,
      old_title: before.title,
      new_title: note.title,
      filename: note.filename,
      filename_unchanged: note.filename === before.filename,
      content_hash: note.contentHash,
      links_preserved: true,
      broken_links_resolved: brokenResolved,
      wikilinks_updated: linksUpdated > 0,
      notes_with_updated_wikilinks: report.notes_updated ?? 0,
      total_wikilinks_updated: linksUpdated,
      ...(report.not_rewritten.length ? { not_rewritten: report.not_rewritten } : {}),
      ...(applied.entryId ? { operation_id: applied.entryId } : {}),
      ...withWarnings(warnings),
    };
  },
});

function rewriteFailure(err: unknown): string {
  if (err instanceof ContentHashMismatchError) {
    return 'changed while its links were being rewritten (content_hash_mismatch); its links still resolve by id: run links_repair';
  }
  return `${toNotekernelError(err).code}: ${toNotekernelError(err).message}`;
}
