import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { contentPrompt } from '../prompts.js';
import {
  ANSWER_ONLY,
  feedbackField,
  idOf,
  nextAction,
  nextActionOutput,
  stageField,
  workflowIdField,
  type CardWorkflow,
  type Stage,
} from '../workflow.js';
import { nullableStr, str, strs, warningsOutput } from '../../../toolkit/tool-output.js';

/**
 * Generator: the embedded prompt for the first draft (stage 1, then commit_draft) or a revision
 * with feedback (stage 2, then commit_content). Called without arguments, as seed 001 does, it
 * reads the stage, title, key points, content and feedback from the workflow record; arguments win.
 */
export function generateContentTool(wf: CardWorkflow) {
  return defineTool({
    name: 'generate_content',
    description:
      'Get the instructions (embedded_prompt) for writing or revising the card content. Arguments left out come from the workflow.',
    input: z.object({
      stage: stageField,
      title: z.string().max(500).optional().describe('the confirmed title'),
      key_points: z
        .array(z.string().max(2000))
        .max(50)
        .optional()
        .describe('the key points content_thinker recorded (stage 1)'),
      original_content: z.string().max(200_000).optional().describe('the content to revise (stage 2)'),
      user_feedback: feedbackField,
      workflow_id: workflowIdField,
    }),
    output: z.object({
      stage: str,
      mode: str,
      embedded_prompt: str,
      confirmed_title: nullableStr.optional(),
      key_points_reminder: strs.optional(),
      next_action: nextActionOutput,
      ...warningsOutput,
    }),
    annotations: { title: 'Generate content', ...ANSWER_ONLY },
    async handler(args) {
      const { record, warnings } = await wf.records.resolve(args.workflow_id);
      const explicitRevision = args.original_content !== undefined || args.user_feedback !== undefined;
      const stage: Stage = args.stage ?? record?.stage ?? (explicitRevision ? 'card' : 'draft');
      const title = args.title ?? record?.title;
      const extra = warnings.length ? { warnings } : {};
      if (stage === 'card') {
        const pending = record?.stage === 'card' && record.revise?.part === 'content' ? record.revise : undefined;
        return {
          stage,
          mode: 'revision',
          embedded_prompt: contentPrompt(wf.conventions, {
            title,
            originalContent:
              args.original_content ?? pending?.original ?? record?.content ?? '(not given: use the content you saved)',
            feedback: args.user_feedback ?? pending?.feedback,
          }),
          next_action: nextAction(
            'commit_content',
            'After generating new content, call commit_content to confirm it.',
            {
              title,
              ...idOf(record),
            },
          ),
          ...extra,
        };
      }
      const keyPoints = args.key_points ?? record?.key_points;
      return {
        stage,
        mode: explicitRevision ? 'revision' : 'first_draft',
        embedded_prompt: contentPrompt(wf.conventions, {
          title,
          keyPoints,
          originalContent: args.original_content,
          feedback: args.user_feedback,
        }),
        confirmed_title: title ?? null,
        key_points_reminder: keyPoints ?? [],
        next_action: nextAction('commit_draft', 'After generating content, call commit_draft with it.', {
          title,
          ...idOf(record),
        }),
        ...extra,
      };
    },
  });
}
