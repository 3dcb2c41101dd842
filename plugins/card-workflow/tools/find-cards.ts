import fs from 'node:fs/promises';
import { z } from 'zod';
import { NotFoundError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool.js';
import { ANSWER_ONLY, type CardWorkflow } from '../workflow.js';
import { num, str } from '../../../kernel/tool-output.js';

/**
 * Not in seed 001, which could save a card but never show it again: the saved cards in the
 * output directory, found by words of their filename or first heading, and one card read whole.
 * Reads files directly, so it works whether or not the profile's storage indexes that folder.
 */
export function findCardsTool(wf: CardWorkflow) {
  return defineTool({
    name: 'find_cards',
    description: 'Find saved cards by words of their filename or title (all cards when query is empty), or read one whole card by filename.',
    input: z.object({
      query: z.string().max(500).optional().describe('words that must all appear in the filename or the first heading, e.g. "stateless design"'),
      filename: z.string().max(300).optional().describe('read this card whole, e.g. "20251021-Stateless-Tool-Chain-Design.md"'),
    }),
    output: z.object({ cards: z.array(z.object({ filename: str, title: str })).optional(), count: num.optional(), filename: str.optional(), path: str.optional(), content: str.optional() }),
    annotations: { title: 'Find saved cards', ...ANSWER_ONLY },
    async handler(args, ctx) {
      const files = ctx.notes.store.files;
      if (!files) return { cards: [], count: 0 };
      const dir = wf.outputDirectory;
      const rel = (name: string) => (dir ? `${dir}/${name}` : name);
      if (args.filename) {
        const name = args.filename.endsWith('.md') ? args.filename : `${args.filename}.md`;
        const text = name.includes('/') ? undefined : await files.readText(rel(name));
        if (text === undefined) throw new NotFoundError(`No saved card "${name}" in ${dir || 'the vault root'}; find_cards without filename lists them.`, { filename: name });
        return { filename: name, path: files.resolve(rel(name)), content: text };
      }
      const words = (args.query ?? '').toLowerCase().split(/\s+/u).filter(Boolean);
      // The files API refuses the root itself as a path; the root is where cards go by default.
      const absolute = dir ? files.resolve(dir) : files.root;
      const entries = (await fs.readdir(absolute, { withFileTypes: true }).catch(() => [])).map((e) => ({ name: e.name, isDirectory: !e.isFile() }));
      const cards = [];
      for (const entry of entries.filter((e) => !e.isDirectory && e.name.endsWith('.md'))) {
        const text = (await files.readText(rel(entry.name))) ?? '';
        const title = /^#\s+(.+)$/mu.exec(text)?.[1]?.trim() ?? entry.name.replace(/\.md$/u, '');
        const haystack = `${entry.name} ${title}`.toLowerCase();
        if (words.every((w) => haystack.includes(w))) cards.push({ filename: entry.name, title });
      }
      cards.sort((a, b) => b.filename.localeCompare(a.filename));
      return { cards, count: cards.length };
    },
  });
}
