import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { ANSWER_ONLY, clip, nextAction, recordId, nextActionOutput, violationsOutput } from '../workflow.js';
import { bool, record, str, strs } from '../../../kernel/tool-output.js';

/** A think tool: records the key points the draft will cover (no-op, logged). */
export const contentThinkerTool = defineTool({
  name: 'content_thinker',
  description: 'Record the key points the draft will cover, before the content is generated (no-op, logged).',
  input: z.object({
    title: z.string().trim().min(1).max(500).describe('the confirmed title'),
    key_points: z.array(z.string().trim().min(1).max(2000)).min(1).max(50).describe('the key points you identified'),
  }),
  output: z.object({ thinking_recorded: bool, record_id: str, title: str, key_points: strs, next_action: nextActionOutput }),
  annotations: { title: 'Content thinker', ...ANSWER_ONLY },
  async handler(args, ctx) {
    const record = recordId('content_thinker', [args.title, args.key_points]);
    ctx.logger.info({ tool: 'content_thinker', record, title: args.title, key_points: args.key_points.map((p) => clip(p, 80)) }, 'thinking recorded');
    return {
      thinking_recorded: true,
      record_id: record,
      title: args.title,
      key_points: args.key_points,
      next_action: nextAction('generate_content', 'Key points recorded. Now call generate_content to create the draft.', {
        stage: 'draft',
        title: args.title,
        key_points: args.key_points,
        thinking_record_id: record,
      }),
    };
  },
});
