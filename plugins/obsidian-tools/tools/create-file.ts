import { z } from 'zod';
import { ValidationError } from '../../../kernel/errors.js';
import type { Metadata } from '../../../kernel/note.js';
import { defineTool } from '../../../kernel/tool.js';
import { composeMarkdown } from '../../../toolkit/markdown/frontmatter.js';
import { contentHash } from '../../../toolkit/hash.js';
import { writeNoteText } from '../../../toolkit/files/note-text.js';
import { filesOf } from '../context.js';
import { noteName, notePath } from '../vault-paths.js';
import { linkSafe } from '../../../toolkit/markdown/wikilink-format.js';
import { bool, str } from '../../../toolkit/tool-output.js';

function frontmatterOf(json: string | undefined): Metadata {
  if (json === undefined || json.trim() === '') return {};
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (err) {
    throw new ValidationError(
      `frontmatter is not valid JSON (${(err as Error).message}); pass an object, e.g. '{"tags": ["meeting"]}'.`,
      { field: 'frontmatter' },
    );
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new ValidationError('frontmatter must be a JSON object, e.g. \'{"tags": ["meeting"]}\'.', {
      field: 'frontmatter',
    });
  return data as Metadata;
}

export const createFile = defineTool({
  name: 'create_file',
  description:
    'Create a new markdown note at a path in the vault (folders made as needed; an existing file is never overwritten). frontmatter: a JSON object, written as YAML.',
  input: z.object({
    path: z
      .string()
      .min(1)
      .max(4_096)
      .describe('where, relative to the vault, e.g. "Meetings/2024-05-01 Standup.md" (.md added when missing)'),
    content: z.string().max(10_000_000).default('').describe('the note body (markdown)'),
    frontmatter: z
      .string()
      .max(1_000_000)
      .optional()
      .describe('JSON object for the YAML frontmatter, e.g. \'{"tags": ["meeting"]}\''),
  }),
  output: z.object({ path: str, created: bool, content_hash: str }),
  annotations: {
    title: 'Create a note',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const files = filesOf(ctx);
    const { rel } = notePath(files, args.path, 'path');
    if (!linkSafe(noteName(rel)))
      throw new ValidationError(
        `The note name "${noteName(rel)}" holds a character a [[wikilink]] cannot (one of [ ] | # ^).`,
        { field: 'path' },
      );
    if (args.content.includes('\0'))
      throw new ValidationError('content contains a NUL byte, which a note file cannot hold.', { field: 'content' });
    const text = composeMarkdown(frontmatterOf(args.frontmatter), args.content);
    await writeNoteText(ctx.notes, files, rel, text, null);
    return { path: rel, created: true, content_hash: contentHash(text) };
  },
});
