/**
 * The one way links get rewritten in notes (rename, links_repair): visit the linking notes the
 * index names (never every file), re-scan each note's *current* text, let a rule decide each
 * link's new text, and write through NoteService.updateMany with the hash just read — so a note
 * that changed in between fails its compare-and-swap and is reported, never clobbered.
 */
import { ContentHashMismatchError, toNotekernelError } from '../../kernel/errors.js';
import type { Note } from '../../kernel/note.js';
import type { NoteService } from '../../kernel/notes.js';
import { scanMarkdown, type NoteLink } from '../../toolkit/markdown/index.js';
import { applyReplacements } from '../../toolkit/markdown/replace.js';
import { noProgress, type ProgressReporter } from '../../kernel/progress.js';
import { applyPlan } from '../../toolkit/plans/plan-runner.js';

/** Decides a link's replacement text (the whole `[[...]]`, or a markdown link's destination), or null to keep it. */
export type RewriteRule = (link: NoteLink, sourceId: string) => { text: string; destinationOnly?: boolean } | null;

export interface LinkEdit {
  note_id: string;
  line_number: number;
  before: string;
  after: string;
}

export interface RewriteOutcome {
  edits: LinkEdit[];
  links_updated: number;
  notes_updated: number;
  not_rewritten: Array<{ id: string; reason: string }>;
  /** The journal entry of a rewrite written as one operation (`rewriteNotes`' `operation`). */
  operation_id?: string;
}

export interface RewriteDeps {
  notes: NoteService;
}

const READ_CONCURRENCY = 32;
/** Notes written per updateMany: bounds how many note locks one rewrite holds at once. */
const WRITE_BATCH = 256;

/** One linking note's rewrite: the note as read, its new text, and each link's edit. */
export interface PlannedRewrite {
  id: string;
  note: Note;
  content: string;
  edits: LinkEdit[];
}

/**
 * Plans every linking note's edits, then writes all of them through one `updateMany` per
 * batch: each note is still its own compare-and-swap, but the writes share locks, fsyncs and
 * index transactions instead of paying for them note by note. With `operation`, the writes are
 * one journalled operation instead (decision 025): a crash leaves all or none, and it can be undone.
 */
export async function rewriteNotes(
  sourceIds: Iterable<string>,
  rule: RewriteRule,
  deps: RewriteDeps,
  dryRun: boolean,
  progress: ProgressReporter = noProgress,
  operation?: string,
): Promise<RewriteOutcome> {
  const { planned, not_rewritten } = await planRewrites(sourceIds, rule, deps, progress);
  const outcome: RewriteOutcome = { edits: [], links_updated: 0, notes_updated: 0, not_rewritten };
  const written = dryRun
    ? planned
    : operation
      ? await writeAsOperation(operation, planned, deps, outcome, progress)
      : await writePlanned(planned, deps, outcome, progress);
  for (const plan of written) {
    outcome.edits.push(...plan.edits);
    outcome.links_updated += plan.edits.length;
    outcome.notes_updated++;
  }
  outcome.not_rewritten.sort((a, b) => (a.id < b.id ? -1 : 1));
  return outcome;
}

/** Reads every linking note and works out its new text; writes nothing. Sorted by id. */
export async function planRewrites(
  sourceIds: Iterable<string>,
  rule: RewriteRule,
  deps: RewriteDeps,
  progress: ProgressReporter = noProgress,
): Promise<{ planned: PlannedRewrite[]; not_rewritten: Array<{ id: string; reason: string }> }> {
  const queue = [...new Set(sourceIds)].sort();
  const planned: PlannedRewrite[] = [];
  const notRewritten: Array<{ id: string; reason: string }> = [];
  progress.start('reading linking notes', queue.length);
  const worker = async (): Promise<void> => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const plan = await planOne(id, rule, deps);
      if ('reason' in plan) notRewritten.push({ id, reason: plan.reason });
      else if (plan.edits.length) planned.push(plan);
      progress.tick();
    }
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
  progress.stop();
  planned.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { planned, not_rewritten: notRewritten };
}

async function writePlanned(
  planned: readonly PlannedRewrite[],
  deps: RewriteDeps,
  outcome: RewriteOutcome,
  progress: ProgressReporter,
): Promise<PlannedRewrite[]> {
  const written: PlannedRewrite[] = [];
  progress.start('rewriting links', planned.length);
  for (let i = 0; i < planned.length; i += WRITE_BATCH) {
    const batch = planned.slice(i, i + WRITE_BATCH);
    const results = await deps.notes.updateMany(
      batch.map((p) => ({
        id: p.id,
        change: { content: p.content },
        expectedHash: p.note.contentHash,
      })),
    );
    batch.forEach((plan, k) => {
      const result = results[k] as PromiseSettledResult<Note>;
      if (result.status === 'fulfilled') written.push(plan);
      else outcome.not_rewritten.push({ id: plan.id, reason: failureReason(result.reason) });
    });
    progress.tick(batch.length);
  }
  progress.stop();
  return written;
}

async function writeAsOperation(
  operation: string,
  planned: readonly PlannedRewrite[],
  deps: RewriteDeps,
  outcome: RewriteOutcome,
  progress: ProgressReporter,
): Promise<PlannedRewrite[]> {
  if (!planned.length) return [];
  progress.start('rewriting links', planned.length);
  const applied = await applyPlan(
    deps.notes,
    operation,
    planned.map((p) => ({
      kind: 'update' as const,
      id: p.id,
      change: { content: p.content },
      expectedHash: p.note.contentHash,
      previous: p.note,
    })),
  );
  progress.stop();
  if (applied.entryId) outcome.operation_id = applied.entryId;
  return planned.filter((plan, k) => {
    const result = applied.results[k];
    if (result?.status === 'fulfilled') return true;
    outcome.not_rewritten.push({ id: plan.id, reason: failureReason(result?.reason) });
    return false;
  });
}

function failureReason(err: unknown): string {
  if (err instanceof ContentHashMismatchError) {
    return 'changed while its links were being rewritten (content_hash_mismatch); its links still resolve by id: run links_repair';
  }
  return `${toNotekernelError(err).code}: ${toNotekernelError(err).message}`;
}

async function planOne(id: string, rule: RewriteRule, deps: RewriteDeps): Promise<PlannedRewrite | { reason: string }> {
  let note: Note | undefined;
  try {
    note = await deps.notes.get(id);
  } catch (err) {
    return { reason: `unreadable: ${toNotekernelError(err).message}` };
  }
  if (!note) return { reason: 'the linking note no longer exists' };
  const replacements: Array<{ start: number; end: number; text: string }> = [];
  const edits: LinkEdit[] = [];
  for (const link of scanMarkdown(note.content, { tags: false }).links) {
    const decision = rule(link, id);
    if (!decision) continue;
    const start = decision.destinationOnly && link.destination ? link.destination.start : link.start;
    const end = decision.destinationOnly && link.destination ? link.destination.end : link.end;
    if (note.content.slice(start, end) === decision.text) continue;
    replacements.push({ start, end, text: decision.text });
    const after = note.content.slice(link.start, start) + decision.text + note.content.slice(end, link.end);
    edits.push({ note_id: id, line_number: link.line, before: link.raw, after });
  }
  return {
    id,
    note,
    content: replacements.length ? applyReplacements(note.content, replacements) : note.content,
    edits,
  };
}

export { formatWikilink, linkSafe } from '../../toolkit/markdown/wikilink-format.js';
