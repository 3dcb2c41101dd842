import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { titlePrompt } from '../prompts.js';
import { ANSWER_ONLY, feedbackField, nextAction, recordField, stageField, type CardWorkflow, type Stage, nextActionOutput, violationsOutput } from '../workflow.js';
import { num, str, strs } from '../../../kernel/tool-output.js';

/** Generator: returns the embedded prompt for a first title (stage 1) or a revision (stage 2). */
export function generateTitleTool(wf: CardWorkflow) {
  return defineTool({
    name: 'generate_title',
    description: 'Get the instructions (embedded_prompt) for writing the card title, with the naming conventions.',
    input: z.object({
      stage: stageField,
      context_summary: z.string().max(20_000).optional().describe('what title_thinker recorded (stage 1)'),
      original_title: z.string().max(500).optional().describe('the title to revise (stage 2, or after a rejected title)'),
      user_feedback: feedbackField,
      thinking_record_id: recordField,
    }),
    output: z.object({ stage: str, mode: str, embedded_prompt: str, naming_conventions: str, rules: z.object({ format: str, min_length: num, max_length: num }), examples: strs, next_action: nextActionOutput }),
    annotations: { title: 'Generate title', ...ANSWER_ONLY },
    async handler(args) {
      const stage: Stage = args.stage ?? (args.original_title !== undefined || args.user_feedback !== undefined ? 'card' : 'draft');
      const rules = wf.conventions.rules.title;
      const prompt = titlePrompt(
        wf.conventions,
        { contextSummary: args.context_summary, originalTitle: args.original_title, feedback: args.user_feedback },
        wf.now(),
      );
      const revising = args.original_title !== undefined || args.user_feedback !== undefined;
      return {
        stage,
        mode: revising ? 'revision' : 'first_draft',
        embedded_prompt: prompt,
        naming_conventions: wf.conventions.text,
        rules: { format: rules.format, min_length: rules.min_length, max_length: rules.max_length },
        examples: rules.examples,
        next_action: nextAction(
          'commit_title',
          revising ? 'After generating the new title, call commit_title to confirm it.' : 'After generating the title, call commit_title with it.',
          { stage, thinking_record_id: args.thinking_record_id },
        ),
      };
    },
  });
}
