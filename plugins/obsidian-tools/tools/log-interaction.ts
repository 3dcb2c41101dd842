import { z } from 'zod';
import { ContentHashMismatchError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool.js';
import { readNoteText, writeNoteText } from '../../../toolkit/files/note-text.js';
import { filesOf } from '../context.js';
import { localDay } from '../dates.js';
import { noteName } from '../vault-paths.js';
import { bool, str } from '../../../toolkit/tool-output.js';

export const DAILY_NOTES_FOLDER = 'Daily Notes';

const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();

/** One log entry: a heading with the time and task, then what was asked, found and used. */
export function formatEntry(
  at: Date,
  args: {
    task_description: string;
    query: string;
    summary: string;
    files?: string[] | undefined;
    full_response?: string | undefined;
  },
): string {
  const time = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  const lines = [`## ${time} ${oneLine(args.task_description)}`, '', `- **Query:** ${oneLine(args.query)}`];
  if (oneLine(args.summary).toLowerCase() !== 'n/a') lines.push(`- **Summary:** ${oneLine(args.summary)}`);
  if (args.files?.length) lines.push(`- **Files:** ${args.files.map((f) => `[[${noteName(f.trim())}]]`).join(', ')}`);
  if (args.full_response?.trim()) lines.push('', args.full_response.trim());
  return `${lines.join('\n')}\n`;
}

export const logInteraction = defineTool({
  name: 'log_interaction',
  description: `Log an interaction to today's daily note (${DAILY_NOTES_FOLDER}/YYYY-MM-DD.md, made if missing): the task, the query, a summary and the files used. For a conversation, pass summary "n/a" and the reply as full_response.`,
  input: z.object({
    task_description: z.string().trim().min(1).max(1_000).describe('what was done, in a few words'),
    query: z.string().max(10_000).describe("the user's question or request"),
    summary: z.string().max(100_000).describe('what was found or done ("n/a" for a conversation, with full_response)'),
    files: z.array(z.string().min(1).max(4_096)).max(500).optional().describe('notes used, logged as [[links]]'),
    full_response: z.string().max(1_000_000).optional().describe('the full reply, for conversational logs'),
  }),
  output: z.object({ path: str, logged: bool }),
  annotations: {
    title: 'Log to the daily note',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const files = filesOf(ctx);
    const now = new Date();
    const rel = `${DAILY_NOTES_FOLDER}/${localDay(now)}.md`;
    const entry = formatEntry(now, args);
    // Another writer may append between our read and write: read again and retry.
    for (let attempt = 0; ; attempt++) {
      const current = await readNoteText(files, rel);
      const text = current
        ? `${current.text}${current.text === '' || current.text.endsWith('\n\n') ? '' : current.text.endsWith('\n') ? '\n' : '\n\n'}${entry}`
        : entry;
      try {
        await writeNoteText(ctx.notes, files, rel, text, current?.hash ?? null);
        return { path: rel, logged: true };
      } catch (err) {
        if (
          attempt >= 3 ||
          !(err instanceof ContentHashMismatchError || (err as { code?: string }).code === 'conflict')
        )
          throw err;
      }
    }
  },
});
