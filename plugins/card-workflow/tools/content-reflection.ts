import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import {
  ANSWER_ONLY,
  contentSummary,
  feedbackField,
  idOf,
  nextAction,
  nextActionOutput,
  recordId,
  wordCount,
  workflowIdField,
  type CardWorkflow,
} from '../workflow.js';
import { bool, str, warningsOutput } from '../../../toolkit/tool-output.js';

/**
 * Reflector: the content needs a revision when the agent says so or the user gave feedback. The
 * verdict, the content and the feedback go into the workflow record for generate_content().
 */
export function contentReflectionTool(wf: CardWorkflow) {
  return defineTool({
    name: 'content_reflection',
    description: 'Decide whether the content needs a revision (user feedback).',
    input: z.object({
      original_content: z.string().trim().min(1).max(200_000).describe('the current content'),
      title: z.string().trim().max(500).optional().describe('the final title'),
      user_feedback: feedbackField,
      needs_modification: z.boolean().optional().describe('your own verdict, if you reached one; it decides'),
      reasoning: z.string().max(5000).optional().describe('your reasoning for that verdict'),
      workflow_id: workflowIdField,
    }),
    output: z.object({
      needs_modification: bool,
      reasoning: str,
      record_id: str,
      next_action: nextActionOutput,
      ...warningsOutput,
    }),
    annotations: { title: 'Content reflection', ...ANSWER_ONLY },
    async handler(args) {
      const feedback = args.user_feedback?.trim() || undefined;
      let needs: boolean;
      let reasoning: string;
      if (args.needs_modification !== undefined) {
        needs = args.needs_modification;
        reasoning =
          args.reasoning ??
          (needs ? 'You judged that the content needs a revision.' : 'You judged that the content stands.');
      } else if (feedback) {
        needs = true;
        reasoning = `User feedback asks for a change ("${feedback}"). Content should be revised.`;
      } else {
        needs = false;
        reasoning = `No user feedback; the content (${wordCount(args.original_content)} words) is kept as the user approved it. No changes needed.`;
      }
      const record = recordId('content_reflection', [args.original_content, feedback, needs]);
      const warnings = /^#{1,6}\s/m.test(args.original_content)
        ? ['The content contains markdown headings; the template adds the structure, so plain paragraphs fit better.']
        : [];
      const resolved = await wf.records.resolve(args.workflow_id);
      const revisionFeedback = feedback ?? args.reasoning;
      const saved =
        (await wf.records.update(resolved, 'content_reflection', (r) => {
          r.stage = 'card';
          r.content = args.original_content;
          if (args.title) r.title = args.title;
          if (needs)
            r.revise = {
              part: 'content',
              original: args.original_content,
              ...(revisionFeedback ? { feedback: revisionFeedback } : {}),
            };
          else delete r.revise;
        })) ?? resolved.record;
      const title = args.title || saved?.title;
      warnings.unshift(...resolved.warnings);
      return {
        needs_modification: needs,
        reasoning,
        record_id: record,
        ...(warnings.length ? { warnings } : {}),
        next_action: needs
          ? nextAction('generate_content', 'Generate revised content addressing the feedback.', {
              stage: 'card',
              original_content: args.original_content,
              user_feedback: revisionFeedback,
              title,
              ...idOf(saved),
            })
          : nextAction('heading_reflection', 'Content confirmed. Proceed to reflect on whether heading is needed.', {
              title,
              content_summary: contentSummary(args.original_content),
              ...idOf(saved),
            }),
      };
    },
  });
}
