import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { validateTitle } from '../conventions.js';
import {
  ANSWER_ONLY,
  feedbackField,
  idOf,
  nextAction,
  nextActionOutput,
  recordId,
  violationsOutput,
  workflowIdField,
  type CardWorkflow,
} from '../workflow.js';
import { bool, str, warningsOutput } from '../../../toolkit/tool-output.js';

/**
 * Reflector: the title needs a revision when the agent says so, when the user gave feedback, or
 * when it breaks the naming convention; otherwise it stands. The verdict and the feedback go into
 * the workflow record, where generate_title() finds them.
 */
export function titleReflectionTool(wf: CardWorkflow) {
  return defineTool({
    name: 'title_reflection',
    description: 'Decide whether the title needs a revision (user feedback, naming convention).',
    input: z.object({
      original_title: z.string().trim().min(1).max(500).describe('the current title'),
      user_feedback: feedbackField,
      needs_modification: z.boolean().optional().describe('your own verdict, if you reached one; it decides'),
      reasoning: z.string().max(5000).optional().describe('your reasoning for that verdict'),
      workflow_id: workflowIdField,
    }),
    output: z.object({
      needs_modification: bool,
      reasoning: str,
      record_id: str,
      original_title: str,
      violations: violationsOutput.optional(),
      next_action: nextActionOutput,
      ...warningsOutput,
    }),
    annotations: { title: 'Title reflection', ...ANSWER_ONLY },
    async handler(args) {
      const feedback = args.user_feedback?.trim() || undefined;
      const violations = validateTitle(wf.conventions, args.original_title);
      let needs: boolean;
      let reasoning: string;
      if (args.needs_modification !== undefined) {
        needs = args.needs_modification;
        reasoning =
          args.reasoning ??
          (needs ? 'You judged that the title needs a revision.' : 'You judged that the title stands.');
      } else if (feedback) {
        needs = true;
        reasoning = `User feedback asks for a change ("${feedback}"). Title should be adjusted.`;
      } else if (violations.length) {
        needs = true;
        reasoning = `The title breaks the naming convention: ${violations.map((v) => v.message).join(' ')}`;
      } else {
        needs = false;
        reasoning =
          'No user feedback, and the title follows the naming convention: it captures the core concept. No modification needed.';
      }
      const record = recordId('title_reflection', [args.original_title, feedback, needs]);
      const revisionFeedback =
        feedback ?? (violations.length ? violations.map((v) => v.message).join(' ') : args.reasoning);
      const resolved = await wf.records.resolve(args.workflow_id);
      const saved =
        (await wf.records.update(resolved, 'title_reflection', (r) => {
          r.stage = 'card';
          r.title = args.original_title;
          if (needs)
            r.revise = {
              part: 'title',
              original: args.original_title,
              ...(revisionFeedback ? { feedback: revisionFeedback } : {}),
            };
          else delete r.revise;
        })) ?? resolved.record;
      const next = needs
        ? nextAction('generate_title', 'Generate revised title addressing the feedback.', {
            stage: 'card',
            original_title: args.original_title,
            user_feedback: revisionFeedback,
            ...idOf(saved),
          })
        : nextAction(
            'content_reflection',
            'Title confirmed. Proceed to reflect on content: call content_reflection with the draft content.',
            {
              title: args.original_title,
              ...(saved?.content !== undefined ? { original_content: saved.content } : {}),
              ...idOf(saved),
            },
          );
      return {
        needs_modification: needs,
        reasoning,
        record_id: record,
        original_title: args.original_title,
        ...(violations.length ? { violations } : {}),
        next_action: next,
        ...(resolved.warnings.length ? { warnings: resolved.warnings } : {}),
      };
    },
  });
}
