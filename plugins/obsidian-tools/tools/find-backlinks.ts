import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { LINK_INDEX } from '../../links/service.js';
import { byPath } from '../context.js';
import { strs } from '../../../toolkit/tool-output.js';

/** `[[Name]]`, `Name.md` and `Name` all mean the note Name. */
function bareName(input: string): string {
  return input.trim().replace(/^\[\[/, '').replace(/\]\]$/, '').replace(/\.md$/i, '').trim();
}

function sameName(a: string, b: string): boolean {
  return a.normalize('NFC').toLocaleLowerCase() === b.normalize('NFC').toLocaleLowerCase();
}

export const findBacklinks = defineTool({
  name: 'find_backlinks',
  description:
    'Files that link to a note with [[note_name]] or [[note_name|alias]] (also #heading links and embeds), case-insensitively as Obsidian matches; links to a note that does not exist yet are found too. Sorted vault paths.',
  input: z.object({
    note_name: z.string().min(1).max(1_000).describe('the note name, without [[ ]] or .md, e.g. "Project Alpha"'),
  }),
  output: z.object({ result: strs }), // the seed's bare list; structuredContent wraps it as { result }
  annotations: { title: 'Backlinks of a note', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const name = bareName(args.note_name);
    const links = ctx.resolve(LINK_INDEX);
    const sources = new Set<string>();
    const target = await links.resolve(name);
    if (target !== null) for (const ref of await links.incoming(target)) sources.add(ref.source_note_id);
    for (const ref of await links.broken())
      if (sameName(ref.target_title.split('#')[0]?.trim() ?? '', name)) sources.add(ref.source_note_id);
    return [...sources].sort(byPath);
  },
});
