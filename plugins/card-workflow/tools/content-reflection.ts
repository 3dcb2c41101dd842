import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { ANSWER_ONLY, contentSummary, feedbackField, nextAction, recordId, wordCount, nextActionOutput, violationsOutput } from '../workflow.js';
import { bool, record, str, warningsOutput } from '../../../kernel/tool-output.js';

/** Reflector: the content needs a revision when the agent says so or the user gave feedback. */
export const contentReflectionTool = defineTool({
  name: 'content_reflection',
  description: 'Decide whether the content needs a revision (user feedback).',
  input: z.object({
    original_content: z.string().trim().min(1).max(200_000).describe('the current content'),
    title: z.string().trim().max(500).optional().describe('the final title (next_action.arguments carries it); passed on to heading_reflection'),
    user_feedback: feedbackField,
    needs_modification: z.boolean().optional().describe('your own verdict, if you reached one; it decides'),
    reasoning: z.string().max(5000).optional().describe('your reasoning for that verdict'),
  }),
  output: z.object({ needs_modification: bool, reasoning: str, record_id: str, next_action: nextActionOutput, ...warningsOutput }),
  annotations: { title: 'Content reflection', ...ANSWER_ONLY },
  async handler(args) {
    const feedback = args.user_feedback?.trim() || undefined;
    let needs: boolean;
    let reasoning: string;
    if (args.needs_modification !== undefined) {
      needs = args.needs_modification;
      reasoning = args.reasoning ?? (needs ? 'You judged that the content needs a revision.' : 'You judged that the content stands.');
    } else if (feedback) {
      needs = true;
      reasoning = `User feedback asks for a change ("${feedback}"). Content should be revised.`;
    } else {
      needs = false;
      reasoning = `No user feedback; the content (${wordCount(args.original_content)} words) is kept as the user approved it. No changes needed.`;
    }
    const record = recordId('content_reflection', [args.original_content, feedback, needs]);
    const warnings = /^#{1,6}\s/m.test(args.original_content) ? ['The content contains markdown headings; the template adds the structure, so plain paragraphs fit better.'] : [];
    return {
      needs_modification: needs,
      reasoning,
      record_id: record,
      ...(warnings.length ? { warnings } : {}),
      next_action: needs
        ? nextAction('generate_content', 'Generate revised content addressing the feedback.', {
            stage: 'card',
            original_content: args.original_content,
            user_feedback: feedback ?? args.reasoning,
            title: args.title,
            thinking_record_id: record,
          })
        : nextAction('heading_reflection', 'Content confirmed. Proceed to reflect on whether heading is needed.', {
            title: args.title,
            content_summary: contentSummary(args.original_content),
          }),
    };
  },
});
