import { z } from 'zod';
import type { NoteSummary } from '../../../kernel/note.js';
import { defineTool } from '../../../kernel/tool.js';
import type { LinksRuntime } from '../runtime.js';
import { bool, num, str } from '../../../toolkit/tool-output.js';
import { limitField, vaultIdField } from '../../../toolkit/tool-fields.js';

const ids = (what: string) => z.array(z.string().min(1)).min(1).optional().describe(what);

export function searchByLinksTool(runtime: LinksRuntime) {
  return defineTool({
    name: 'search_by_links',
    description: 'Notes meeting all the criteria given (a domain matches its subdomains).',
    input: z.object({
      has_links_to: ids('Linking to any of these (id, title or filename)'),
      linked_from: ids('Linked from any of these'),
      external_domains: ids('Linking out to any of these, e.g. "github.com"'),
      broken_links: z.boolean().optional().describe('true: holding a broken link'),
      limit: limitField(100, 10_000),
      vault_id: vaultIdField,
    }),
    output: z.object({
      success: bool,
      notes: z.array(
        z.object({
          id: str,
          title: str,
          type: str.optional(),
          filename: str,
          path: str,
          created: str,
          updated: str,
          size: num,
        }),
      ),
      count: num,
      truncated: bool.optional(),
    }),
    annotations: { title: 'Search by links', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      await runtime.reconcile();
      const sets: Array<Set<string>> = [];
      if (args.has_links_to) {
        const found = new Set<string>();
        for (const identifier of args.has_links_to)
          for (const l of runtime.links.incoming(await runtime.noteId(identifier))) found.add(l.source_note_id);
        sets.push(found);
      }
      if (args.linked_from) {
        const found = new Set<string>();
        for (const identifier of args.linked_from) {
          for (const l of runtime.links.outgoing(await runtime.noteId(identifier)))
            if (l.target_note_id !== null) found.add(l.target_note_id);
        }
        sets.push(found);
      }
      if (args.external_domains) {
        const domains = args.external_domains.map((d) => d.toLowerCase().replace(/^\*?\./, ''));
        sets.push(
          new Set(
            runtime.links
              .externalUrls()
              .filter((e) => matchesDomain(e.url, domains))
              .map((e) => e.note_id),
          ),
        );
      }
      if (args.broken_links) sets.push(new Set(runtime.links.broken().map((l) => l.source_note_id)));
      if (!sets.length) return { success: true, notes: [], count: 0 };
      const [first, ...rest] = sets as [Set<string>, ...Array<Set<string>>];
      const matched = [...first].filter((id) => rest.every((s) => s.has(id))).sort();
      const summaries = new Map((await ctx.notes.list()).map((s) => [s.id, s]));
      const notes = matched
        .slice(0, args.limit)
        .map((id) => summaries.get(id))
        .filter((s): s is NoteSummary => s !== undefined)
        .map(toNoteRow);
      return {
        success: true,
        notes,
        count: matched.length,
        ...(matched.length > notes.length ? { truncated: true } : {}),
      };
    },
  });
}

function matchesDomain(url: string, domains: readonly string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** seed 000's NoteRow without `content` (an answer sized for a context window). */
function toNoteRow(s: NoteSummary) {
  return {
    id: s.id,
    title: s.title,
    type: s.type,
    filename: s.filename,
    path: s.path,
    created: s.created,
    updated: s.updated,
    size: s.size,
  };
}
