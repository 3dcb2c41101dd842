import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { titlePrompt } from '../prompts.js';
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
import { num, str, strs, warningsOutput } from '../../../toolkit/tool-output.js';

/**
 * Generator: the embedded prompt for a first title (stage 1) or a revision (stage 2, or after a
 * rejected title). Called without arguments, as seed 001 does, it reads the stage, the context,
 * the title to revise and the feedback from the workflow record; arguments given win.
 */
export function generateTitleTool(wf: CardWorkflow) {
  return defineTool({
    name: 'generate_title',
    description:
      'Get the instructions (embedded_prompt) for writing the card title, with the naming conventions. Arguments left out come from the workflow.',
    input: z.object({
      stage: stageField,
      context_summary: z.string().max(20_000).optional().describe('what title_thinker recorded (stage 1)'),
      original_title: z
        .string()
        .max(500)
        .optional()
        .describe('the title to revise (stage 2, or after a rejected title)'),
      user_feedback: feedbackField,
      workflow_id: workflowIdField,
    }),
    output: z.object({
      stage: str,
      mode: str,
      embedded_prompt: str,
      naming_conventions: str,
      rules: z.object({ format: str, min_length: num, max_length: num }),
      examples: strs,
      next_action: nextActionOutput,
      ...warningsOutput,
    }),
    annotations: { title: 'Generate title', ...ANSWER_ONLY },
    async handler(args) {
      const { record, warnings } = await wf.records.resolve(args.workflow_id);
      const explicitRevision = args.original_title !== undefined || args.user_feedback !== undefined;
      const stage: Stage = args.stage ?? record?.stage ?? (explicitRevision ? 'card' : 'draft');
      const pending = record?.stage === stage && record.revise?.part === 'title' ? record.revise : undefined;
      // Stage 2 only ever regenerates; stage 1 revises after a rejected title.
      const revising = explicitRevision || pending !== undefined || stage === 'card';
      const originalTitle = args.original_title ?? pending?.original ?? (stage === 'card' ? record?.title : undefined);
      const feedback = args.user_feedback ?? pending?.feedback;
      const rules = wf.conventions.rules.title;
      const prompt = titlePrompt(
        wf.conventions,
        revising
          ? { originalTitle: originalTitle ?? '(not given)', feedback }
          : { contextSummary: args.context_summary ?? record?.context_summary },
        wf.now(),
      );
      const answer = {
        stage,
        mode: revising ? 'revision' : 'first_draft',
        embedded_prompt: prompt,
        naming_conventions: wf.conventions.text,
        rules: { format: rules.format, min_length: rules.min_length, max_length: rules.max_length },
        examples: rules.examples,
        next_action: nextAction(
          'commit_title',
          revising
            ? 'After generating the new title, call commit_title to confirm it.'
            : 'After generating the title, call commit_title with it.',
          { stage, ...idOf(record) },
        ),
      };
      return warnings.length ? { ...answer, warnings } : answer;
    },
  });
}
