import { z } from 'zod';
import { NotFoundError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool.js';
import { scanMarkdown } from '../../../toolkit/markdown/index.js';
import { byPath, filesOf } from '../context.js';
import { notePath } from '../vault-paths.js';
import { str, strs } from '../../../toolkit/tool-output.js';

const pathArg = z
  .string()
  .min(1)
  .max(4_096)
  .describe('the note: relative to the vault ("Projects/Plan.md") or an absolute path inside it');

async function readNote(ctx: Parameters<typeof filesOf>[0], input: string): Promise<{ path: string; content: string }> {
  const files = filesOf(ctx);
  const { rel } = notePath(files, input, 'path');
  const content = await files.readText(rel);
  if (content === undefined) throw new NotFoundError(`No note at ${rel}.`, { path: rel });
  return { path: rel, content };
}

export const readFile = defineTool({
  name: 'read_file',
  description:
    'Read the full text of a vault note (frontmatter included). Paths outside the vault and tool folders (.obsidian, .git, ...) are refused.',
  input: z.object({ path: pathArg }),
  output: z.object({ path: str, content: str }),
  annotations: { title: 'Read a note', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, ctx) => readNote(ctx, args.path),
});

export const findOutlinks = defineTool({
  name: 'find_outlinks',
  description:
    'The notes a file links to with [[wikilinks]] (and ![[embeds]]): note names, deduplicated and sorted; [[note|alias]] and [[note#heading]] give "note".',
  input: z.object({ path: pathArg }),
  output: z.object({ result: strs }), // the seed's bare list; structuredContent wraps it as { result }
  annotations: { title: 'Links out of a note', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const note = await readNote(ctx, args.path);
    const names = new Set<string>();
    for (const link of scanMarkdown(note.content, { tags: false }).links)
      if (link.kind === 'wikilink' || link.kind === 'embed') names.add(link.target);
    return [...names].sort(byPath);
  },
});
