import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import {
  ANSWER_ONLY,
  contentSummary,
  idOf,
  nextAction,
  nextActionOutput,
  recordField,
  recordWarnings,
  withWarnings,
  wordCount,
  workflowIdField,
  type CardWorkflow,
} from '../workflow.js';
import { num, str, warningsOutput } from '../../../toolkit/tool-output.js';

/** Commit of revised content (stage 2); the record keeps it for the steps that follow. */
export function commitContentTool(wf: CardWorkflow) {
  return defineTool({
    name: 'commit_content',
    description: 'Submit the revised content (stage 2).',
    input: z.object({
      content: z.string().trim().min(1).max(200_000).describe('the revised content, plain text'),
      title: z.string().trim().max(500).optional().describe('the final title'),
      thinking_record_id: recordField,
      workflow_id: workflowIdField,
    }),
    output: z.object({ status: str, content_length: num, next_action: nextActionOutput, ...warningsOutput }),
    annotations: { title: 'Commit content', ...ANSWER_ONLY },
    async handler(args) {
      const resolved = await wf.records.resolve(args.workflow_id);
      const warnings = [
        ...resolved.warnings,
        ...recordWarnings(
          'commit_content',
          args.thinking_record_id,
          ['content_reflection'],
          resolved.record,
          wf.records,
        ),
      ];
      const saved =
        (await wf.records.update(resolved, 'commit_content', (r) => {
          r.stage = 'card';
          r.content = args.content;
          delete r.revise;
        })) ?? resolved.record;
      return withWarnings(
        {
          status: 'content_confirmed',
          content_length: wordCount(args.content),
          next_action: nextAction(
            'heading_reflection',
            'Content finalized. Proceed to reflect on whether heading is needed.',
            {
              title: args.title || saved?.title,
              content_summary: contentSummary(args.content),
              ...idOf(saved),
            },
          ),
        },
        warnings,
      );
    },
  });
}
