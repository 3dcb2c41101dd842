import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { validateTitle } from '../conventions.js';
import { ANSWER_ONLY, nextAction, recordField, recordWarnings, stageField, withWarnings, type CardWorkflow, nextActionOutput, violationsOutput } from '../workflow.js';
import { str, warningsOutput } from '../../../kernel/tool-output.js';

/**
 * Commit: checks the title against the naming convention. A title that breaks a rule is answered
 * (not failed) with each rule, an example and next_action back to generate_title.
 */
export function commitTitleTool(wf: CardWorkflow) {
  return defineTool({
    name: 'commit_title',
    description: 'Submit the card title; it is checked against the naming convention.',
    input: z.object({
      title: z.string().trim().min(1).max(500).describe('the generated title, e.g. 20251021-MCP-Tool-Driven-Design'),
      stage: stageField,
      thinking_record_id: recordField,
    }),
    output: z.object({ status: str, stage: str.optional(), title: str, violations: violationsOutput.optional(), message: str.optional(), next_action: nextActionOutput, ...warningsOutput }),
    annotations: { title: 'Commit title', ...ANSWER_ONLY },
    async handler(args) {
      const stage = args.stage ?? 'draft';
      const warnings = recordWarnings('commit_title', args.thinking_record_id, stage === 'card' ? ['title_reflection'] : ['title_thinker']);
      const violations = validateTitle(wf.conventions, args.title);
      if (violations.length) {
        const rules = violations.map((v) => v.rule).join(', ');
        return withWarnings(
          {
            status: 'title_rejected',
            title: args.title,
            violations,
            message: `The title breaks the naming convention (${rules}): ${violations.map((v) => v.message).join(' ')} Example: ${violations[0]?.example}`,
            next_action: nextAction('generate_title', `Title rejected (${rules}). Call generate_title again and write a title that fixes it.`, {
              stage,
              original_title: args.title,
              user_feedback: violations.map((v) => v.message).join(' '),
              thinking_record_id: args.thinking_record_id,
            }),
          },
          warnings,
        );
      }
      const next =
        stage === 'card'
          ? nextAction('content_reflection', 'Title finalized. Proceed to reflect on content: call content_reflection with the draft content.', { title: args.title })
          : nextAction('content_thinker', 'Title confirmed. Now call content_thinker to plan the content.', { title: args.title });
      return withWarnings({ status: 'title_confirmed', stage, title: args.title, next_action: next }, warnings);
    },
  });
}
