import { z } from 'zod';
import type { Note } from '../../../kernel/note.js';
import { locationOf } from '../../../toolkit/note-location.js';

import { toNotekernelError, ValidationError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool.js';
import { entryId } from '../entry-id.js';
import { memoryGraph } from '../graph.js';
import { replaceLink } from '../replace-link.js';
import { DRY_RUN, spelt, speltRequired, spellings } from '../spellings.js';
import { bool, modesOutput, num, planPreviewOutput, str } from '../../../toolkit/tool-output.js';
import { nameString } from '../../../toolkit/tool-fields.js';
import { applyPlan, previewPlan, type PlanItem } from '../../../toolkit/plans/plan-runner.js';

const idText = nameString().min(1);

/**
 * Seed 002's `replaceLink(body, oldId, newId)` over the whole memory: the step of a defrag
 * merge that moves every link from the entry merged away to the one kept. Every entry holding
 * an `[[oldId…]]` link is rewritten (display text kept) in one journalled operation, each file
 * replaced atomically; the old entry is left as it is (archive or delete it next). `oldId`
 * need not exist (repairing a broken link); `newId` must, so a typo makes no broken links.
 */
export const memoryReplaceLink = defineTool({
  name: 'memory_replace_link',
  description:
    'Point every [[oldId|text]] / [[oldId]] link at newId instead, display text kept (merging: then archive the old entry). Returns the entries changed.',
  input: z.object({
    ...spellings('oldId', 'old_id', idText, 'required: the id links point at now (need not exist)'),
    ...spellings('newId', 'new_id', idText, 'required: the entry to point them at'),
    ...spellings('dryRun', 'dry_run', z.boolean(), DRY_RUN),
  }),
  output: modesOutput(
    {
      oldId: str,
      newId: str,
      updatedLinks: num,
      updatedEntries: z.array(z.object({ id: str, title: str, path: str, links: num })),
      notUpdated: z.array(z.object({ id: str, error: str, reason: str })),
      operationId: str,
      changed: bool,
    },
    planPreviewOutput,
  ),
  annotations: {
    title: 'Retarget memory links',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const oldId = entryId(speltRequired<string>(args, 'oldId', 'old_id'));
    const newId = entryId(speltRequired<string>(args, 'newId', 'new_id'));
    const dryRun = spelt<boolean>(args, 'dryRun', 'dry_run') ?? false;
    if (oldId === newId)
      throw new ValidationError(`oldId and newId are both ${oldId}: nothing to retarget.`, {
        fields: ['oldId', 'newId'],
      });
    await ctx.notes.require(newId);
    const rewrites: Array<{ note: Note; body: string; replaced: number }> = [];
    for (const source of await memoryGraph(ctx).referrers(oldId)) {
      const note = await ctx.notes.get(source);
      if (!note) continue;
      const { body, replaced } = replaceLink(note.content, oldId, newId);
      if (replaced > 0) rewrites.push({ note, body, replaced });
    }
    const items: PlanItem[] = rewrites.map((r) => ({
      kind: 'update',
      id: r.note.id,
      change: { content: r.body },
      expectedHash: r.note.contentHash,
      previous: r.note,
    }));
    if (dryRun) return previewPlan(ctx.notes, 'memory_replace_link', items);
    if (items.length === 0)
      return { oldId, newId, updatedLinks: 0, updatedEntries: [], notUpdated: [], changed: false };
    ctx.progress.start('retargeting links', items.length);
    const applied = await applyPlan(ctx.notes, 'memory_replace_link', items);
    ctx.progress.stop();
    const updatedEntries: Array<{ id: string; title: string; path: string; links: number }> = [];
    const notUpdated: Array<{ id: string; error: string; reason: string }> = [];
    applied.results.forEach((result, k) => {
      const r = rewrites[k] as { note: Note; replaced: number };
      if (result.status === 'fulfilled')
        updatedEntries.push({
          id: result.value.id,
          title: result.value.title,
          path: locationOf(result.value).path,
          links: r.replaced,
        });
      else
        notUpdated.push({
          id: r.note.id,
          error: toNotekernelError(result.reason).code,
          reason: toNotekernelError(result.reason).message,
        });
    });
    return {
      oldId,
      newId,
      updatedLinks: updatedEntries.reduce((n, e) => n + e.links, 0),
      updatedEntries,
      notUpdated,
      ...(applied.entryId ? { operationId: applied.entryId } : {}),
      changed: updatedEntries.length > 0,
    };
  },
});
