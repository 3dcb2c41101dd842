import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { ANSWER_ONLY, contentSummary, nextAction, recordField, recordWarnings, withWarnings, wordCount, nextActionOutput, violationsOutput } from '../workflow.js';
import { num, str, warningsOutput } from '../../../kernel/tool-output.js';

/** Commit of revised content (stage 2). */
export const commitContentTool = defineTool({
  name: 'commit_content',
  description: 'Submit the revised content (stage 2).',
  input: z.object({
    content: z.string().trim().min(1).max(200_000).describe('the revised content, plain text'),
    title: z.string().trim().max(500).optional().describe('the final title (next_action.arguments carries it); passed on to heading_reflection'),
    thinking_record_id: recordField,
  }),
  output: z.object({ status: str, content_length: num, next_action: nextActionOutput, ...warningsOutput }),
  annotations: { title: 'Commit content', ...ANSWER_ONLY },
  async handler(args) {
    const warnings = recordWarnings('commit_content', args.thinking_record_id, ['content_reflection']);
    return withWarnings(
      {
        status: 'content_confirmed',
        content_length: wordCount(args.content),
        next_action: nextAction('heading_reflection', 'Content finalized. Proceed to reflect on whether heading is needed.', {
          title: args.title,
          content_summary: contentSummary(args.content),
        }),
      },
      warnings,
    );
  },
});
