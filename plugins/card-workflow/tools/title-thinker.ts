import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import {
  ANSWER_ONLY,
  clip,
  continuing,
  idOf,
  nextAction,
  nextActionOutput,
  recordId,
  workflowIdField,
  type CardWorkflow,
} from '../workflow.js';
import { bool, str } from '../../../toolkit/tool-output.js';

/** A think tool: its arguments are the inspectable record of the agent's reasoning, kept for generate_title. */
export function titleThinkerTool(wf: CardWorkflow) {
  return defineTool({
    name: 'title_thinker',
    description: 'Record your understanding of the conversation before the title is generated.',
    input: z.object({
      context_summary: z
        .string()
        .trim()
        .min(1)
        .max(20_000)
        .describe('your summary of the conversation context for this card'),
      topic: z.string().max(1000).optional().describe('the topic from start_draft_generation'),
      workflow_id: workflowIdField,
    }),
    output: z.object({ thinking_recorded: bool, record_id: str, context_summary: str, next_action: nextActionOutput }),
    annotations: { title: 'Title thinker', ...ANSWER_ONLY },
    async handler(args, ctx) {
      const record = recordId('title_thinker', args.context_summary);
      ctx.logger.info(
        { tool: 'title_thinker', record, context_summary: clip(args.context_summary) },
        'thinking recorded',
      );
      // A default workflow past stage 1's first steps is another card's: this one starts anew.
      const resolved = continuing(
        await wf.records.resolve(args.workflow_id),
        (r) => r.stage === 'draft' && r.draft === undefined,
      );
      const saved =
        (await wf.records.update(resolved, 'title_thinker', (r) => {
          r.context_summary = args.context_summary;
          if (args.topic !== undefined) r.topic = args.topic;
        })) ?? resolved?.record;
      return {
        thinking_recorded: true,
        record_id: record,
        context_summary: args.context_summary,
        next_action: nextAction(
          'generate_title',
          'Thinking recorded. Now call generate_title to create the card title.',
          {
            stage: 'draft',
            context_summary: args.context_summary,
            ...idOf(saved),
          },
        ),
      };
    },
  });
}
