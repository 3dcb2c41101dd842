import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { headingPrompt } from '../prompts.js';
import {
  ANSWER_ONLY,
  feedbackField,
  idOf,
  nextAction,
  nextActionOutput,
  workflowIdField,
  type CardWorkflow,
} from '../workflow.js';
import { num, str, warningsOutput } from '../../../toolkit/tool-output.js';

/**
 * Generator: the embedded prompt for a content heading (stage 2, optional). Called without
 * arguments, as seed 001 does, it reads the title, the content summary and the feedback from
 * the workflow record; arguments win.
 */
export function generateHeadingTool(wf: CardWorkflow) {
  return defineTool({
    name: 'generate_heading',
    description:
      'Get the instructions (embedded_prompt) for writing the content heading. Arguments left out come from the workflow.',
    input: z.object({
      title: z.string().max(500).optional().describe('the final title'),
      content_summary: z.string().max(5000).optional().describe('what the content says, in a sentence or two'),
      user_feedback: feedbackField,
      workflow_id: workflowIdField,
    }),
    output: z.object({
      embedded_prompt: str,
      rules: z.object({ min_length: num, max_length: num }),
      next_action: nextActionOutput,
      ...warningsOutput,
    }),
    annotations: { title: 'Generate heading', ...ANSWER_ONLY },
    async handler(args) {
      const { record, warnings } = await wf.records.resolve(args.workflow_id);
      const { min_length, max_length } = wf.conventions.rules.heading;
      const title = args.title ?? record?.title;
      const pending = record?.revise?.part === 'heading' ? record.revise : undefined;
      return {
        embedded_prompt: headingPrompt(wf.conventions, {
          title,
          contentSummary: args.content_summary ?? record?.content_summary,
          feedback: args.user_feedback ?? pending?.feedback,
        }),
        rules: { min_length, max_length },
        next_action: nextAction('commit_heading', 'After generating heading, call commit_heading to confirm it.', {
          title,
          ...idOf(record),
        }),
        ...(warnings.length ? { warnings } : {}),
      };
    },
  });
}
