import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { headingPrompt } from '../prompts.js';
import { ANSWER_ONLY, feedbackField, nextAction, recordField, type CardWorkflow, nextActionOutput, violationsOutput } from '../workflow.js';
import { num, str } from '../../../kernel/tool-output.js';

/** Generator: the embedded prompt for a content heading (stage 2, optional). */
export function generateHeadingTool(wf: CardWorkflow) {
  return defineTool({
    name: 'generate_heading',
    description: 'Get the instructions (embedded_prompt) for writing the content heading.',
    input: z.object({
      title: z.string().max(500).optional().describe('the final title'),
      content_summary: z.string().max(5000).optional().describe('what the content says, in a sentence or two'),
      user_feedback: feedbackField,
      thinking_record_id: recordField,
    }),
    output: z.object({ embedded_prompt: str, rules: z.object({ min_length: num, max_length: num }), next_action: nextActionOutput }),
    annotations: { title: 'Generate heading', ...ANSWER_ONLY },
    async handler(args) {
      const { min_length, max_length } = wf.conventions.rules.heading;
      return {
        embedded_prompt: headingPrompt(wf.conventions, { title: args.title, contentSummary: args.content_summary, feedback: args.user_feedback }),
        rules: { min_length, max_length },
        next_action: nextAction('commit_heading', 'After generating heading, call commit_heading to confirm it.', {
          title: args.title,
          thinking_record_id: args.thinking_record_id,
        }),
      };
    },
  });
}
