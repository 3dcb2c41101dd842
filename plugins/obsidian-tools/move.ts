/**
 * Moving a note as Obsidian does: the file goes to its new path (folders made as needed, never
 * over an existing file), and when that changes its name, `[[old name]]`, `[[old name|alias]]`,
 * `[[old name#heading]]` and `![[old name]]` in the notes linking to it become the new name (a
 * link by path, `[[Old/Place/old name]]`, becomes the new path). The linking notes are the ones
 * the links index names; each is rewritten with a compare-and-swap on the text planned from, so a
 * note edited meanwhile is reported, never clobbered. The whole move is one journalled operation.
 */
import { z } from 'zod';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { VaultFiles } from '../../kernel/backend.js';
import { ConflictError, NotFoundError, ValidationError, toNotekernelError } from '../../kernel/errors.js';
import type { NoteService } from '../../kernel/notes.js';
import type { FileText } from '../../toolkit/plans/journal.js';

import { scanMarkdown } from '../../toolkit/markdown/index.js';
import { applyReplacements } from '../../toolkit/markdown/replace.js';
import { formatWikilink, linkSafe } from '../../toolkit/markdown/wikilink-format.js';
import type { LinkIndexService } from '../links/service.js';
import { folderPath, noteName, notePath } from './vault-paths.js';
import { applyPlan, previewPlan, type PlanItem } from '../../toolkit/plans/plan-runner.js';
import { readText } from '../../toolkit/plans/recorded.js';

export interface MoveOutcome {
  source: string;
  destination: string;
  links_updated: number;
  notes_updated: string[];
  not_rewritten: Array<{ path: string; reason: string }>;
}

export interface MoveDeps {
  notes: NoteService;
  files: VaultFiles;
  links: LinkIndexService;
}

const fold = (s: string): string => s.normalize('NFC').toLocaleLowerCase();

export async function moveNote(deps: MoveDeps, sourceInput: string, destinationInput: string): Promise<MoveOutcome> {
  const [outcome] = (await moveNotes(deps, [{ source: sourceInput, destination: destinationInput }], 'move_file'))
    .outcomes;
  if (outcome instanceof Error) throw outcome;
  return outcome as MoveOutcome;
}

export interface MovesResult {
  /** Per move, in order: what it did, or why it was refused. */
  outcomes: Array<MoveOutcome | Error>;
  operation_id?: string;
}

/**
 * Several moves as one journalled operation (decision 025): every file's new text is planned
 * first (the copies, the sources removed, every linking note's rewrites — a note named by several
 * moves is rewritten once, with all of them), then written as one plan: a crash leaves all or
 * none, and undo_operation puts every file back. A dry run returns that plan and writes nothing.
 */
export async function moveNotes(
  deps: MoveDeps,
  moves: ReadonlyArray<{ source: string; destination: string }>,
  operation: string,
): Promise<MovesResult> {
  const plan = new MovePlan(deps);
  const outcomes: Array<MoveOutcome | Error> = [];
  for (const move of moves)
    outcomes.push(await plan.add(move.source, move.destination).catch((err: unknown) => toNotekernelError(err)));
  const items = await plan.items();
  const applied = await applyPlan(deps.notes, operation, items);
  const failed = new Map(
    items.flatMap((item, k) =>
      applied.results[k]?.status === 'rejected'
        ? [[item.path, toNotekernelError((applied.results[k] as PromiseRejectedResult).reason)]]
        : [],
    ),
  );
  for (const [k, outcome] of outcomes.entries()) {
    if (outcome instanceof Error) continue;
    const failure = failed.get(outcome.destination) ?? failed.get(outcome.source);
    if (failure) {
      // The source changed (or went) while the plan ran: the copy goes, the source stays as it is.
      if (!failed.has(outcome.destination)) await deps.notes.delete(outcome.destination).catch(() => undefined);
      outcomes[k] = failure;
      continue;
    }
    for (const at of outcome.notes_updated.filter((p) => failed.has(p)))
      outcome.not_rewritten.push({ path: at, reason: (failed.get(at) as Error).message });
    outcome.notes_updated = outcome.notes_updated.filter((p) => !failed.has(p));
  }
  return { outcomes, ...(applied.entryId ? { operation_id: applied.entryId } : {}) };
}

/** The same plan, written nowhere. */
export async function previewMoves(
  deps: MoveDeps,
  moves: ReadonlyArray<{ source: string; destination: string }>,
  operation: string,
) {
  const plan = new MovePlan(deps, true);
  const refused: Array<{ source: string; destination: string; error: string }> = [];
  for (const move of moves)
    await plan
      .add(move.source, move.destination)
      .catch((err: unknown) => refused.push({ ...move, error: toNotekernelError(err).message }));
  return {
    ...(await previewPlan(deps.notes, operation, await plan.items())),
    ...(refused.length ? { refused_moves: refused } : {}),
  };
}

/** Files as the moves planned so far leave them (null: removed), over the files on disk. */
class MovePlan {
  private readonly planned = new Map<string, string | null>();
  private readonly onDisk = new Map<string, FileText | undefined>();
  private readonly movedTo = new Map<string, string>();

  constructor(
    private readonly deps: MoveDeps,
    private readonly dryRun = false,
  ) {}

  async add(sourceInput: string, destinationInput: string): Promise<MoveOutcome> {
    const { files, links } = this.deps;
    const from = notePath(files, sourceInput, 'source').rel;
    const to =
      (await intoFolder(files, destinationInput, from)) ?? notePath(files, destinationInput, 'destination').rel;
    if (from === to)
      throw new ValidationError(`source and destination are the same file (${from}).`, { field: 'destination' });
    const text = await this.read(from);
    if (text === undefined) throw new NotFoundError(`No note at ${from}.`, { field: 'source', path: from });
    if (fold(from) === fold(to)) return this.caseRename(from, to, text);
    if ((await this.read(to)) !== undefined)
      throw new ConflictError(`${to} already exists; nothing was moved.`, { field: 'destination', path: to });
    if (!linkSafe(noteName(to)))
      throw new ValidationError(
        `destination "${noteName(to)}" holds a character a [[wikilink]] cannot (one of [ ] | # ^).`,
        { field: 'destination' },
      );
    const linking = new Set((await links.incoming(from)).map((ref) => ref.source_note_id));
    this.planned.set(to, text);
    this.planned.set(from, null);
    this.movedTo.set(from, to);
    const outcome: MoveOutcome = {
      source: from,
      destination: to,
      links_updated: 0,
      notes_updated: [],
      not_rewritten: [],
    };
    for (const source of [...linking].sort()) {
      const at = this.movedTo.get(source) ?? source;
      const before = await this.read(at);
      if (before === undefined) continue;
      const rewritten = rewrittenLinks(before, from, to);
      if (rewritten.count === 0) continue;
      this.planned.set(at, rewritten.text);
      outcome.links_updated += rewritten.count;
      outcome.notes_updated.push(at);
    }
    return outcome;
  }

  /**
   * Only the case of the name changes: on a case-insensitive file system the new name is the old
   * file, which one plan step per path cannot say; it goes through a temporary name at once,
   * outside the journal (each step still a compare-and-swap), and is not part of a dry run.
   */
  private async caseRename(from: string, to: string, text: string): Promise<MoveOutcome> {
    if (this.dryRun)
      throw new ValidationError(
        `${from} → ${to} changes only the case of the name: it is done directly, not planned; a dry run leaves it out.`,
        { field: 'destination' },
      );
    if (this.planned.has(from) || this.planned.has(to))
      throw new ConflictError(`${from} is part of another move in this batch; move it on its own.`, {
        field: 'source',
        path: from,
      });
    const { notes } = this.deps;
    const linking = [...new Set((await this.deps.links.incoming(from)).map((ref) => ref.source_note_id))].sort();
    const hash = (this.onDisk.get(from) as FileText).hash;
    await notes.writeText(`${from}.moving.md`, text, null);
    await notes.delete(from, hash);
    await notes.writeText(to, text, null);
    await notes.delete(`${from}.moving.md`);
    this.onDisk.delete(from);
    this.onDisk.delete(to);
    const outcome: MoveOutcome = {
      source: from,
      destination: to,
      links_updated: 0,
      notes_updated: [],
      not_rewritten: [],
    };
    for (const source of linking) {
      const at = source === from ? to : source;
      try {
        const before = await readText(notes, at);
        const rewritten = before ? rewrittenLinks(before.text, from, to) : { text: '', count: 0 };
        if (!before || rewritten.count === 0) continue;
        await notes.writeText(at, rewritten.text, before.hash);
        outcome.links_updated += rewritten.count;
        outcome.notes_updated.push(at);
      } catch (err) {
        outcome.not_rewritten.push({ path: at, reason: toNotekernelError(err).message });
      }
    }
    return outcome;
  }

  /** One text step per file whose planned text differs from the one on disk. */
  async items(): Promise<Array<PlanItem & { kind: 'text' }>> {
    const items: Array<PlanItem & { kind: 'text' }> = [];
    for (const [path, text] of this.planned) {
      const disk = this.onDisk.get(path);
      if ((disk?.text ?? null) === text) continue;
      items.push({ kind: 'text', path, text, expectedHash: disk?.hash ?? null });
    }
    return items;
  }

  private async read(path: string): Promise<string | undefined> {
    if (this.planned.has(path)) return this.planned.get(path) ?? undefined;
    if (!this.onDisk.has(path)) this.onDisk.set(path, await readText(this.deps.notes, path));
    return this.onDisk.get(path)?.text;
  }
}

/** A destination that names a folder (`Archive/`, or an existing folder): the note keeps its file name there. */
async function intoFolder(files: VaultFiles, destination: string, from: string): Promise<string | undefined> {
  const trimmed = destination.trim();
  const folder = trimmed.endsWith('/') ? folderPath(files, trimmed, 'destination') : undefined;
  const target = folder ?? (/\.md$/i.test(trimmed) ? undefined : folderPath(files, trimmed, 'destination'));
  if (!target) return undefined;
  const isFolder =
    folder !== undefined ||
    (await fs.stat(target.absolute).then(
      (s) => s.isDirectory(),
      () => false,
    ));
  if (!isFolder) return undefined;
  const name = path.posix.basename(from);
  return target.rel === '' ? name : `${target.rel}/${name}`;
}

/** `text` with the links that name `from` by name or by path naming `to`; how many. */
function rewrittenLinks(text: string, from: string, to: string): { text: string; count: number } {
  const oldName = fold(noteName(from));
  const oldPath = fold(from.replace(/\.md$/i, ''));
  const newName = noteName(to);
  const newPath = to.replace(/\.md$/i, '');
  const replacements: Array<{ start: number; end: number; text: string }> = [];
  for (const link of scanMarkdown(text, { tags: false }).links) {
    if (link.kind === 'markdown') continue;
    const target = fold(link.target.replace(/\.md$/i, ''));
    const next = target === oldPath && oldPath.includes('/') ? newPath : target === oldName ? newName : undefined;
    if (next === undefined || next === link.target) continue;
    replacements.push({ start: link.start, end: link.end, text: formatWikilink(link, next, link.alias) });
  }
  return { text: replacements.length ? applyReplacements(text, replacements) : text, count: replacements.length };
}

/** MoveOutcome as an output schema. */
export const moveOutcomeOutput = {
  source: z.string(),
  destination: z.string(),
  links_updated: z.number(),
  notes_updated: z.array(z.string()),
  not_rewritten: z.array(z.object({ path: z.string(), reason: z.string() })),
};
