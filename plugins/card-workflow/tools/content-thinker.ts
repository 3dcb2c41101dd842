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
import { bool, str, strs } from '../../../toolkit/tool-output.js';

/** A think tool: records the key points the draft will cover, kept for generate_content. */
export function contentThinkerTool(wf: CardWorkflow) {
  return defineTool({
    name: 'content_thinker',
    description: 'Record the key points the draft will cover, before the content is generated.',
    input: z.object({
      title: z.string().trim().min(1).max(500).describe('the confirmed title'),
      key_points: z.array(z.string().trim().min(1).max(2000)).min(1).max(50).describe('the key points you identified'),
      workflow_id: workflowIdField,
    }),
    output: z.object({
      thinking_recorded: bool,
      record_id: str,
      title: str,
      key_points: strs,
      next_action: nextActionOutput,
    }),
    annotations: { title: 'Content thinker', ...ANSWER_ONLY },
    async handler(args, ctx) {
      const record = recordId('content_thinker', [args.title, args.key_points]);
      ctx.logger.info(
        { tool: 'content_thinker', record, title: args.title, key_points: args.key_points.map((p) => clip(p, 80)) },
        'thinking recorded',
      );
      const resolved = continuing(
        await wf.records.resolve(args.workflow_id),
        (r) => r.stage === 'draft' && r.draft === undefined,
      );
      const saved =
        (await wf.records.update(resolved, 'content_thinker', (r) => {
          r.title = args.title;
          r.key_points = args.key_points;
        })) ?? resolved?.record;
      return {
        thinking_recorded: true,
        record_id: record,
        title: args.title,
        key_points: args.key_points,
        next_action: nextAction(
          'generate_content',
          'Key points recorded. Now call generate_content to create the draft.',
          {
            stage: 'draft',
            title: args.title,
            key_points: args.key_points,
            ...idOf(saved),
          },
        ),
      };
    },
  });
}
