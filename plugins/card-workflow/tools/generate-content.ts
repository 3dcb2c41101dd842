import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { contentPrompt } from '../prompts.js';
import { ANSWER_ONLY, feedbackField, nextAction, recordField, stageField, type CardWorkflow, type Stage, nextActionOutput, violationsOutput } from '../workflow.js';
import { nullableStr, str, strs } from '../../../kernel/tool-output.js';

/** Generator: the embedded prompt for the first draft (stage 1) or a revision with feedback (stage 2). */
export function generateContentTool(wf: CardWorkflow) {
  return defineTool({
    name: 'generate_content',
    description: 'Get the instructions (embedded_prompt) for writing or revising the card content.',
    input: z.object({
      stage: stageField,
      title: z.string().max(500).optional().describe('the confirmed title (stage 1)'),
      key_points: z.array(z.string().max(2000)).max(50).optional().describe('the key points content_thinker recorded (stage 1)'),
      original_content: z.string().max(200_000).optional().describe('the content to revise (stage 2)'),
      user_feedback: feedbackField,
      thinking_record_id: recordField,
    }),
    output: z.object({ stage: str, mode: str, embedded_prompt: str, confirmed_title: nullableStr.optional(), key_points_reminder: strs.optional(), next_action: nextActionOutput }),
    annotations: { title: 'Generate content', ...ANSWER_ONLY },
    async handler(args) {
      const revising = args.original_content !== undefined || args.user_feedback !== undefined;
      const stage: Stage = args.stage ?? (revising ? 'card' : 'draft');
      const prompt = contentPrompt(wf.conventions, {
        title: args.title,
        keyPoints: args.key_points,
        originalContent: args.original_content,
        feedback: args.user_feedback,
      });
      if (stage === 'card') {
        return {
          stage,
          mode: 'revision',
          embedded_prompt: prompt,
          next_action: nextAction('commit_content', 'After generating new content, call commit_content to confirm it.', {
            title: args.title,
            thinking_record_id: args.thinking_record_id,
          }),
        };
      }
      return {
        stage,
        mode: revising ? 'revision' : 'first_draft',
        embedded_prompt: prompt,
        confirmed_title: args.title ?? null,
        key_points_reminder: args.key_points ?? [],
        next_action: nextAction('commit_draft', 'After generating content, call commit_draft with it.', {
          title: args.title,
          thinking_record_id: args.thinking_record_id,
        }),
      };
    },
  });
}
