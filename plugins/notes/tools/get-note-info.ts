import { z } from 'zod';
import type { NoteSummary } from '../../../kernel/note.js';
import { locationOf } from '../../../toolkit/note-location.js';
import { defineTool } from '../../../kernel/tool.js';
import { nameString, pathString, titleString, vaultIdField } from '../../../toolkit/tool-fields.js';
import { noteRow } from './list-notes-by-type.js';
import { bool, str } from '../../../toolkit/tool-output.js';
import { noteRowOutput } from '../render.js';

export const getNoteInfoTool = defineTool({
  name: 'get_note_info',
  description:
    'Find notes by title or filename: ids and wikilink forms; exact matches first, then titles containing it.',
  input: z
    .object({
      title_or_filename: pathString().trim().min(1).optional().describe('Title, or filename with or without .md'),
      title: titleString().trim().min(1).optional().describe('Instead of title_or_filename'),
      filename: nameString().trim().min(1).optional().describe('Instead of title_or_filename'),
      type: nameString().min(1).optional().describe('Only this note type'),
      vault_id: vaultIdField,
    })
    .superRefine((args, issue) => {
      if (args.title_or_filename === undefined && args.title === undefined && args.filename === undefined) {
        issue.addIssue({
          code: 'custom',
          path: ['title_or_filename'],
          message: 'Required (or pass title or filename)',
        });
      }
    }),
  output: z
    .object({
      found: bool,
      message: str.optional(),
      other_matches: z.array(z.object({ id: str, title: str })).optional(),
    })
    .extend(z.object(noteRowOutput).partial().shape),
  annotations: { title: 'Get note info', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const wanted = (args.title_or_filename ?? args.title ?? args.filename ?? '').toLowerCase();
    const stem = wanted.replace(/\.md$/, '');
    const notes = await ctx.notes.list(args.type !== undefined ? { type: args.type } : {});
    const rank = (n: NoteSummary): number => {
      const title = n.title.toLowerCase();
      const file = locationOf(n).filename.toLowerCase().replace(/\.md$/, '');
      if (n.id.toLowerCase() === wanted || n.id.toLowerCase() === `${stem}.md`) return 0;
      if (args.filename === undefined && title === wanted) return 1;
      if (args.title === undefined && file === stem) return 2;
      if (args.filename === undefined && title.includes(wanted)) return 3;
      return -1;
    };
    const matches = notes
      .map((n) => ({ n, r: rank(n) }))
      .filter((m) => m.r >= 0)
      .sort((a, b) => a.r - b.r || a.n.title.length - b.n.title.length || a.n.id.localeCompare(b.n.id));
    const best = matches[0];
    if (!best)
      return {
        found: false,
        message: `No note found with title or filename: ${args.title_or_filename ?? args.title ?? args.filename}`,
      };
    return {
      found: true,
      ...noteRow(best.n),
      ...(matches.length > 1
        ? { other_matches: matches.slice(1, 10).map((m) => ({ id: m.n.id, title: m.n.title })) }
        : {}),
    };
  },
});
