import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import {
  ANSWER_ONLY,
  nextAction,
  nextActionOutput,
  recordField,
  recordWarnings,
  withWarnings,
  workflowIdField,
  type CardWorkflow,
} from '../workflow.js';
import { str, warningsOutput } from '../../../toolkit/tool-output.js';

/** Commit of the content heading; its length is checked against the conventions (a warning only). */
export function commitHeadingTool(wf: CardWorkflow) {
  return defineTool({
    name: 'commit_heading',
    description: 'Submit the content heading (stage 2).',
    input: z.object({
      heading: z.string().trim().min(1).max(500).describe('the generated heading'),
      title: z.string().max(500).optional().describe('the final title'),
      thinking_record_id: recordField,
      workflow_id: workflowIdField,
    }),
    output: z.object({ status: str, heading: str, next_action: nextActionOutput, ...warningsOutput }),
    annotations: { title: 'Commit heading', ...ANSWER_ONLY },
    async handler(args) {
      const resolved = await wf.records.resolve(args.workflow_id);
      const warnings = [
        ...resolved.warnings,
        ...recordWarnings(
          'commit_heading',
          args.thinking_record_id,
          ['heading_reflection'],
          resolved.record,
          wf.records,
        ),
      ];
      const { min_length, max_length } = wf.conventions.rules.heading;
      const length = [...args.heading].length;
      if (length < min_length || length > max_length) {
        warnings.push(
          `The heading is ${length} characters; the conventions suggest ${min_length}-${max_length}. Accepted anyway.`,
        );
      }
      const saved =
        (await wf.records.update(resolved, 'commit_heading', (r) => {
          r.stage = 'card';
          r.heading = args.heading;
          delete r.revise;
        })) ?? resolved.record;
      const title = args.title ?? saved?.title;
      return withWarnings(
        {
          status: 'heading_confirmed',
          heading: args.heading,
          next_action: nextAction('template_selector', 'Heading finalized. Proceed to template selection.', {
            title,
            ...(saved?.tags ? { tags: saved.tags } : {}),
          }),
        },
        warnings,
      );
    },
  });
}
