import fs from 'node:fs/promises';
import { z } from 'zod';
import { NotFoundError, ValidationError } from '../../../kernel/errors.js';
import type { NoteSummary } from '../../../kernel/note.js';
import { defineTool } from '../../../kernel/tool.js';
import { byPath, filesOf } from '../context.js';
import { dayArg, dayOfValue, localDay } from '../dates.js';
import { folderPath } from '../vault-paths.js';
import { strs } from '../../../toolkit/tool-output.js';

/** Frontmatter keys that hold a note's creation day in Obsidian vaults, the seed's `Date` first. */
const CREATED_KEYS = ['Date', 'date', 'created', 'Created'];
const STAT_SLICE = 256;

export const searchByDateRange = defineTool({
  name: 'search_by_date_range',
  description:
    'Notes in a date range (both ends included, YYYY-MM-DD, local time). date_type "modified" (default): the file\'s modification time; "created": the frontmatter Date field (also date/created; [[2023-08-11]] links accepted), else the file\'s creation time. Sorted vault paths.',
  input: z.object({
    start_date: dayArg.describe('first day, YYYY-MM-DD'),
    end_date: dayArg.describe('last day, YYYY-MM-DD'),
    date_type: z.enum(['created', 'modified']).default('modified').describe('which date to compare'),
  }),
  output: z.object({ result: strs }), // the seed's bare list; structuredContent wraps it as { result }
  annotations: { title: 'Find notes by date', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    if (args.start_date > args.end_date)
      throw new ValidationError(`start_date ${args.start_date} is after end_date ${args.end_date}.`, {
        field: 'start_date',
      });
    const files = filesOf(ctx);
    const dayOf = async (note: NoteSummary): Promise<string | undefined> => {
      const day =
        args.date_type === 'created'
          ? CREATED_KEYS.map((key) => dayOfValue(note.metadata[key])).find((d) => d !== undefined)
          : undefined;
      if (day !== undefined) return day;
      const stats = await fs.stat(files.resolve(note.id)).catch(() => undefined);
      return stats && localDay(args.date_type === 'created' ? stats.birthtime : stats.mtime); // undefined: gone since it was listed
    };
    const notes = await ctx.notes.list();
    const hits: string[] = [];
    // File times are not indexed: stat the notes a slice at a time, concurrently.
    for (let i = 0; i < notes.length; i += STAT_SLICE) {
      const slice = notes.slice(i, i + STAT_SLICE);
      const days = await Promise.all(slice.map(dayOf));
      slice.forEach((note, k) => {
        const day = days[k];
        if (day !== undefined && day >= args.start_date && day <= args.end_date) hits.push(note.id);
      });
    }
    return hits.sort(byPath);
  },
});

export const searchByFolder = defineTool({
  name: 'search_by_folder',
  description:
    'The notes in a folder (relative to the vault; "" or "." for its root), with recursive: true also those in its subfolders. Sorted vault paths.',
  input: z.object({
    folder: z.string().max(4_096).describe('the folder, e.g. "Projects/Active"'),
    recursive: z.boolean().default(false).describe('include subfolders'),
  }),
  output: z.object({ result: strs }), // the seed's bare list
  annotations: { title: 'List a folder', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const files = filesOf(ctx);
    const folder = folderPath(files, args.folder, 'folder');
    const stats = await fs.stat(folder.absolute).catch(() => undefined);
    if (!stats?.isDirectory())
      throw new NotFoundError(`No folder ${folder.rel} in the vault.`, { field: 'folder', path: folder.rel });
    const prefix = folder.rel === '' ? '' : `${folder.rel}/`;
    const hits = (await ctx.notes.list())
      .map((note) => note.id)
      .filter((id) => id.startsWith(prefix) && (args.recursive || !id.slice(prefix.length).includes('/')));
    return hits.sort(byPath);
  },
});
