import { z } from 'zod';

import { defineTool } from '../../../kernel/tool.js';
import { entryId, idField } from '../entry-id.js';
import { memoryGraph } from '../graph.js';
import { DRY_RUN, spelt, speltRequired, spellings } from '../spellings.js';
import { modesOutput, num, planPreviewOutput, str } from '../../../toolkit/tool-output.js';
import { titleString } from '../../../toolkit/tool-fields.js';
import { applyPlan, previewPlan, type PlanItem } from '../../../toolkit/plans/plan-runner.js';

/** US-005: heading + filename (id kept) + inbound display text that equalled the old title. */
export const memoryRename = defineTool({
  name: 'memory_rename',
  description:
    'Rename an entry: rewrites its "# heading" and filename (the id stays) and the display text of inbound links that showed the old title (custom display text is kept). Returns how many inbound links changed.',
  input: z.object({
    id: idField,
    ...spellings('newTitle', 'new_title', titleString().min(1), 'required: the new title, one line'),
    ...spellings('dryRun', 'dry_run', z.boolean(), DRY_RUN),
  }),
  output: modesOutput({ id: str, oldTitle: str, title: str, path: str, updatedInboundLinks: num }, planPreviewOutput),
  annotations: {
    title: 'Rename a memory',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const newTitle = speltRequired<string>(args, 'newTitle', 'new_title');
    const dryRun = spelt<boolean>(args, 'dryRun', 'dry_run') ?? false;
    const id = entryId(args.id);
    const note = await ctx.notes.require(id);
    if (note.title === newTitle)
      return { id, oldTitle: note.title, title: note.title, path: note.path, updatedInboundLinks: 0 };
    const inbound = (await memoryGraph(ctx).planInbound(id, note.title, newTitle)).filter((r) => r.note.id !== id);
    // The heading, the filename and every inbound rewrite are one journalled operation.
    const items: PlanItem[] = [
      { kind: 'update', id, change: { title: newTitle }, expectedHash: note.contentHash, previous: note },
      ...inbound.map((r) => ({
        kind: 'update' as const,
        id: r.note.id,
        change: { content: r.content },
        expectedHash: r.note.contentHash,
        previous: r.note,
      })),
    ];
    if (dryRun) return previewPlan(ctx.notes, 'memory_rename', items);
    ctx.progress.start('renaming and rewriting links', items.length);
    const applied = await applyPlan(ctx.notes, 'memory_rename', items);
    ctx.progress.stop();
    const [first, ...rest] = applied.results;
    if (first?.status !== 'fulfilled') throw first?.reason;
    const renamed = first.value;
    const updatedInboundLinks = inbound.reduce((n, r, k) => n + (rest[k]?.status === 'fulfilled' ? r.links : 0), 0);
    return { id, oldTitle: note.title, title: renamed.title, path: renamed.path, updatedInboundLinks };
  },
});
