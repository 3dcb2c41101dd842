import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import {
  ANSWER_ONLY,
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
import { nullableStr, num, str, warningsOutput } from '../../../toolkit/tool-output.js';

const PREVIEW_WORDS = 200;

/** Stage 1 ends: the draft is echoed with a preview, and the user reviews it and adds tags. */
export function commitDraftTool(wf: CardWorkflow) {
  return defineTool({
    name: 'commit_draft',
    description: 'Submit the draft content; ends stage 1 so the user can review it and add tags.',
    input: z.object({
      content: z.string().trim().min(1).max(200_000).describe('the generated draft, plain text'),
      title: z.string().max(500).optional().describe('the confirmed title'),
      thinking_record_id: recordField,
      workflow_id: workflowIdField,
    }),
    output: z.object({
      status: str,
      draft: z.object({ title: nullableStr, content: str, word_count: num }),
      message: str,
      next_stage: str,
      next_action: nextActionOutput,
      ...warningsOutput,
    }),
    annotations: { title: 'Commit draft', ...ANSWER_ONLY },
    async handler(args) {
      const resolved = await wf.records.resolve(args.workflow_id);
      const title = args.title ?? resolved.record?.title;
      const warnings = [
        ...resolved.warnings,
        ...recordWarnings('commit_draft', args.thinking_record_id, ['content_thinker'], resolved.record, wf.records),
      ];
      if (title === undefined)
        warnings.push('commit_draft got no title: pass the title you committed so the draft is complete.');
      const record =
        (await wf.records.update(resolved, 'commit_draft', (r) => {
          r.stage = 'draft';
          if (title !== undefined) r.title = title;
          r.draft = args.content;
          r.content = args.content;
        })) ?? resolved.record;
      const words = args.content.split(/\s+/u).filter(Boolean);
      const preview = words.slice(0, PREVIEW_WORDS).join(' ') + (words.length > PREVIEW_WORDS ? ' …' : '');
      return withWarnings(
        {
          status: 'draft_completed',
          draft: { title: title ?? null, content: args.content, word_count: wordCount(args.content) },
          message:
            `✅ Draft generation complete!\n\n📋 Content Preview:\n${preview}\n\n⏸️ Next Steps:\n` +
            "1. Review the content, tell me if changes are needed\n2. Manually add appropriate tags (e.g., #SoftwareEngineering #MCP)\n3. When ready, say 'generate card' to proceed to Stage 2",
          next_stage: 'card_generation',
          next_action: {
            ...nextAction(
              'start_card_generation',
              "Stop and show the draft to the user. When they have reviewed it (edits included) and given their tags, call start_card_generation with the final draft, the title and the user's tags.",
              { title, draft_content: args.content, ...idOf(record) },
            ),
            wait_for_user: true,
          },
        },
        warnings,
      );
    },
  });
}
