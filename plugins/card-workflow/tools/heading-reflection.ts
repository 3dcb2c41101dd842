import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { conceptWords } from '../conventions.js';
import {
  ANSWER_ONLY,
  feedbackField,
  idOf,
  nextAction,
  nextActionOutput,
  recordId,
  workflowIdField,
  type CardWorkflow,
} from '../workflow.js';
import { bool, str, warningsOutput } from '../../../toolkit/tool-output.js';

/**
 * Reflector: a content heading is worth it when the agent says so, the user asks for one, or the
 * title's core concept is abbreviated (fewer words than the conventions' `needed_below_words`).
 * Title, summary and feedback go into the workflow record for generate_heading().
 */
export function headingReflectionTool(wf: CardWorkflow) {
  return defineTool({
    name: 'heading_reflection',
    description: 'Decide whether the card needs a content heading more detailed than its title.',
    input: z.object({
      title: z.string().trim().min(1).max(500).describe('the final title'),
      content_summary: z.string().trim().min(1).max(5000).describe('one or two sentences on what the content says'),
      user_feedback: feedbackField,
      needs_heading: z.boolean().optional().describe('your own verdict, if you reached one; it decides'),
      reasoning: z.string().max(5000).optional().describe('your reasoning for that verdict'),
      workflow_id: workflowIdField,
    }),
    output: z.object({
      needs_heading: bool,
      reasoning: str,
      record_id: str,
      next_action: nextActionOutput,
      ...warningsOutput,
    }),
    annotations: { title: 'Heading reflection', ...ANSWER_ONLY },
    async handler(args) {
      const feedback = args.user_feedback?.trim() || undefined;
      const words = conceptWords(wf.conventions, args.title);
      const threshold = wf.conventions.rules.heading.needed_below_words;
      let needs: boolean;
      let reasoning: string;
      if (args.needs_heading !== undefined) {
        needs = args.needs_heading;
        reasoning =
          args.reasoning ??
          (needs ? 'You judged that a content heading helps.' : 'You judged that no heading is needed.');
      } else if (feedback) {
        needs = true;
        reasoning = `User feedback asks for a heading ("${feedback}").`;
      } else if (words.length < threshold) {
        needs = true;
        reasoning = `Card title is abbreviated for the filename format (${wf.conventions.rules.title.format}): its core concept has ${words.length} word(s), fewer than ${threshold}. The content deserves a fuller heading.`;
      } else {
        needs = false;
        reasoning = `Card title is already sufficiently descriptive (${words.length} words in its core concept). Content heading would be redundant.`;
      }
      const record = recordId('heading_reflection', [args.title, args.content_summary, needs]);
      const resolved = await wf.records.resolve(args.workflow_id);
      const saved =
        (await wf.records.update(resolved, 'heading_reflection', (r) => {
          r.stage = 'card';
          r.title = args.title;
          r.content_summary = args.content_summary;
          if (needs) r.revise = { part: 'heading', ...(feedback ? { feedback } : {}) };
          else {
            delete r.revise;
            delete r.heading;
          }
        })) ?? resolved.record;
      return {
        needs_heading: needs,
        reasoning,
        record_id: record,
        next_action: needs
          ? nextAction('generate_heading', 'Generate detailed content heading.', {
              title: args.title,
              content_summary: args.content_summary,
              user_feedback: feedback,
              ...idOf(saved),
            })
          : nextAction('template_selector', 'No heading needed. Proceed to template selection.', {
              title: args.title,
              ...(saved?.tags ? { tags: saved.tags } : {}),
            }),
        ...(resolved.warnings.length ? { warnings: resolved.warnings } : {}),
      };
    },
  });
}
