import fs from 'node:fs/promises';
import { z } from 'zod';
import { NotFoundError } from '../../../kernel/errors.js';
import { parseQuery, queryWords, questionTerms, requiredGroups } from '../../../toolkit/search/query.js';
import { SEARCH_INDEX } from '../../../kernel/tokens.js';
import { defineTool } from '../../../kernel/tool.js';
import { ANSWER_ONLY, type CardWorkflow } from '../workflow.js';
import { num, str } from '../../../toolkit/tool-output.js';

/** Cards a query returns at most. */
const MAX_CARDS = 50;

/**
 * Not in seed 001, which could save a card but never show it again: the saved cards in the
 * output directory, and one card read whole. A query goes through the vault's search index as
 * every search does (docs/search-syntax.md: a question finds cards holding any of its words,
 * those holding every one first), then cards whose filename holds every word; without an index,
 * by filename and first heading alone. The listing reads the folder, so it works whether or not
 * the profile's storage indexes it.
 */
export function findCardsTool(wf: CardWorkflow) {
  return defineTool({
    name: 'find_cards',
    description:
      'Find saved cards by words or a question (best matches first; all cards when query is empty), or read one whole card by filename.',
    input: z.object({
      query: z
        .string()
        .max(500)
        .optional()
        .describe('words or a question, e.g. "stateless design" or "how do tools chain without state?"'),
      filename: z.string().max(300).optional().describe('read this card whole, e.g. "20251021-Stateless-Workflow.md"'),
    }),
    output: z.object({
      cards: z.array(z.object({ filename: str, title: str })).optional(),
      count: num.optional(),
      filename: str.optional(),
      path: str.optional(),
      content: str.optional(),
    }),
    annotations: { title: 'Find saved cards', ...ANSWER_ONLY },
    async handler(args, ctx) {
      // The output folder may lie outside the vault (an absolute output_directory): read it there.
      const files = wf.cardFiles;
      const dir = wf.outputDirectory;
      const rel = (name: string) => (dir ? `${dir}/${name}` : name);
      if (args.filename) {
        const name = args.filename.endsWith('.md') ? args.filename : `${args.filename}.md`;
        const text = name.includes('/') ? undefined : await files.readText(rel(name));
        if (text === undefined)
          throw new NotFoundError(
            `No saved card "${name}" in ${wf.externalOutput ?? (dir || 'the vault root')}; find_cards without filename lists them.`,
            { filename: name },
          );
        return { filename: name, path: files.resolve(rel(name)), content: text };
      }
      const query = parseQuery(args.query ?? '');
      const words = (questionTerms(query) ?? requiredGroups(query).flat()).flatMap((t) => t.words);
      // The files API refuses the root itself as a path; the root is where cards go by default.
      const absolute = dir ? files.resolve(dir) : files.root;
      const entries = (await fs.readdir(absolute, { withFileTypes: true }).catch(() => [])).filter(
        (e) => e.isFile() && e.name.endsWith('.md'),
      );
      const titleOf = async (name: string) => {
        const text = (await files.readText(rel(name))) ?? '';
        return /^#\s+(.+)$/mu.exec(text)?.[1]?.trim() ?? name.replace(/\.md$/u, '');
      };
      const cards: Array<{ filename: string; title: string }> = [];
      const index = words.length && !wf.externalOutput ? ctx.tryResolve(SEARCH_INDEX) : undefined;
      if (index) {
        const inFolder = new Set(entries.map((e) => rel(e.name)));
        for (const hit of (await index.search({ text: args.query ?? '', limit: MAX_CARDS * 4 })).hits) {
          if (!inFolder.has(hit.id) || cards.length >= MAX_CARDS) continue;
          const filename = hit.id.slice(hit.id.lastIndexOf('/') + 1);
          cards.push({ filename, title: hit.note?.title ?? (await titleOf(filename)) });
        }
      }
      const found = new Set(cards.map((c) => c.filename));
      const named = [];
      for (const entry of entries) {
        if (found.has(entry.name)) continue;
        const inName = new Set(queryWords(entry.name));
        // With an index the content was searched already: only the filename is left to match.
        if (index && !words.every((w) => inName.has(w))) continue;
        const title = await titleOf(entry.name);
        const inTitle = new Set(queryWords(title));
        if (words.every((w) => inName.has(w) || inTitle.has(w))) named.push({ filename: entry.name, title });
      }
      named.sort((a, b) => b.filename.localeCompare(a.filename));
      cards.push(...named.slice(0, Math.max(0, (words.length ? MAX_CARDS : Infinity) - cards.length)));
      return { cards, count: cards.length };
    },
  });
}
