/**
 * rename_tag across the vault: frontmatter `tags` and inline `#tags`, nested tags with them
 * (`#a/b` → `#x/b` when renaming `a` to `x`). Index-driven: only notes the tag index lists are
 * read. Every note's change is planned with the hash just read and applied as one journalled
 * operation (decision 025), so a note changed meanwhile is reported, never overwritten, a crash
 * leaves all or none, and undo_operation takes it back. Dry run first (the default): it carries
 * the exact plan, with each note's unified diff.
 */
import { ContentHashMismatchError, toNotekernelError, ValidationError } from '../../kernel/errors.js';
import type { NoteService } from '../../kernel/notes.js';
import { extractTags, isTagName, tagKey } from '../../toolkit/markdown/index.js';
import { applyReplacements } from '../../toolkit/markdown/replace.js';
import { noProgress, type ProgressReporter } from '../../kernel/progress.js';
import type { TagIndex } from './tag-index.js';
import { applyPlan, previewPlan, type PlanItem, type PlanPreview } from '../../toolkit/plans/plan-runner.js';

export interface TagRenameNote {
  id: string;
  title: string;
  frontmatter?: { before: string[]; after: string[] };
  inline: Array<{ line: number; before: string; after: string }>;
}

export interface TagRenameReport {
  dry_run: boolean;
  from: string;
  to: string;
  notes: TagRenameNote[];
  notes_affected: number;
  occurrences: number;
  notes_updated: number;
  not_rewritten: Array<{ id: string; reason: string }>;
  /** A dry run's exact plan (NoteService.previewPlan): what the real run writes. */
  plan?: PlanPreview;
  operation_id?: string;
}

export async function renameTag(
  index: TagIndex,
  notes: NoteService,
  args: { from: string; to: string; dryRun: boolean; nested: boolean },
  progress: ProgressReporter = noProgress,
): Promise<TagRenameReport> {
  const from = args.from.trim().replace(/^#/, '');
  const to = args.to.trim().replace(/^#/, '');
  if (!isTagName(from))
    throw new ValidationError(
      `"${args.from}" is not a tag name: letters, digits, _, - and /, with at least one letter.`,
      { field: 'from' },
    );
  if (!isTagName(to))
    throw new ValidationError(
      `"${args.to}" is not a tag name: letters, digits, _, - and /, with at least one letter.`,
      { field: 'to' },
    );
  if (from === to) throw new ValidationError('from and to are the same tag.', { field: 'to' });
  const fromKey = tagKey(from);
  const depth = fromKey.split('/').length;
  const retag = (tag: string): string | null => {
    const key = tagKey(tag);
    if (key === fromKey) return to;
    if (args.nested && key.startsWith(`${fromKey}/`)) return `${to}/${tag.split('/').slice(depth).join('/')}`;
    return null;
  };

  await index.reconcile();
  const report: TagRenameReport = {
    dry_run: args.dryRun,
    from,
    to,
    notes: [],
    notes_affected: 0,
    occurrences: 0,
    notes_updated: 0,
    not_rewritten: [],
  };
  const ids = await index.notesWith({ any: [from], nested: args.nested });
  // A dry run reports its reading; a real run its writing (applyPlan ticks each note), one count each.
  if (args.dryRun) progress.start('renaming tag', ids.length);
  const items: Array<PlanItem & { kind: 'update' }> = [];
  for (const id of ids) {
    if (args.dryRun) progress.tick();
    const note = await notes.get(id);
    if (!note) continue;
    const entry: TagRenameNote = { id, title: note.title, inline: [] };
    const nextTags = dedupe(note.tags.map((t) => retag(t.replace(/^#/, '')) ?? t));
    const tagsChanged = nextTags.join('\u0000') !== note.tags.join('\u0000');
    if (tagsChanged) entry.frontmatter = { before: note.tags, after: nextTags };
    const replacements: Array<{ start: number; end: number; text: string }> = [];
    for (const t of extractTags(note.content)) {
      const next = retag(t.tag);
      if (next === null) continue;
      replacements.push({ start: t.start, end: t.end, text: `#${next}` });
      entry.inline.push({ line: t.line, before: t.raw, after: `#${next}` });
    }
    if (!tagsChanged && !replacements.length) continue;
    report.notes.push(entry);
    report.notes_affected++;
    report.occurrences +=
      entry.inline.length + (tagsChanged ? note.tags.filter((t) => retag(t.replace(/^#/, '')) !== null).length : 0);
    const change = {
      ...(replacements.length ? { content: applyReplacements(note.content, replacements) } : {}),
      ...(tagsChanged ? { tags: nextTags } : {}),
    };
    items.push({ kind: 'update', id, change, expectedHash: note.contentHash, previous: note });
  }
  if (args.dryRun) {
    progress.stop();
    return { ...report, plan: await previewPlan(notes, 'rename_tag', items) };
  }
  // Every note's change is one journalled operation (decision 025): all or none after a crash, undoable.
  progress.start('renaming tag', items.length);
  const applied = await applyPlan(notes, 'rename_tag', items);
  progress.stop();
  for (const [k, outcome] of applied.results.entries()) {
    const id = (items[k] as PlanItem & { kind: 'update' }).id;
    if (outcome.status === 'fulfilled') {
      await index.run(() => index.apply(outcome.value));
      report.notes_updated++;
    } else {
      const err = outcome.reason;
      const reason =
        err instanceof ContentHashMismatchError
          ? 'changed while the tag was being renamed (content_hash_mismatch); run rename_tag again'
          : toNotekernelError(err).message;
      report.not_rewritten.push({ id, reason });
    }
  }
  if (applied.entryId) report.operation_id = applied.entryId;
  return report;
}

function dedupe(tags: string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((t) => {
    const key = tagKey(t);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
