import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { validateTitle } from '../conventions.js';
import {
  ANSWER_ONLY,
  continuing,
  idOf,
  nextAction,
  nextActionOutput,
  normaliseTags,
  tagsField,
  withWarnings,
  wordCount,
  workflowIdField,
  type CardWorkflow,
} from '../workflow.js';
import { num, str, strs, warningsOutput } from '../../../toolkit/tool-output.js';

/**
 * Stage 2 starts with the user's final draft, the title and the user's own tags. The workflow of
 * that draft goes on (its workflow_id, or the latest one still in stage 1 or with this title);
 * otherwise a new one begins. Stage 2's own values start empty.
 */
export function startCardGenerationTool(wf: CardWorkflow) {
  return defineTool({
    name: 'start_card_generation',
    description:
      "Start stage 2 (card) with the reviewed draft, its title and the user's tags. Then follow next_action.",
    input: z.object({
      draft_content: z
        .string()
        .trim()
        .min(1)
        .max(200_000)
        .describe('the draft as the user approved it (edits included)'),
      title: z.string().trim().min(1).max(500).describe('the card title from stage 1'),
      tags: tagsField,
      workflow_id: workflowIdField,
    }),
    output: z.object({
      status: str,
      received: z.object({ title: str, content_length: num, tags: strs }),
      next_action: nextActionOutput,
      ...warningsOutput,
    }),
    annotations: { title: 'Start card generation', ...ANSWER_ONLY },
    async handler(args) {
      const tags = normaliseTags(args.tags);
      const warnings: string[] = [];
      if (tags.length === 0)
        warnings.push("No tags given: tags are the user's own; ask the user for them before formatting the card.");
      if (validateTitle(wf.conventions, args.title).length)
        warnings.push('The title breaks the naming convention; title_reflection will ask for a revision.');
      const resolved = continuing(
        await wf.records.resolve(args.workflow_id),
        (r) => r.stage === 'draft' || r.title === args.title,
      );
      const record =
        (await wf.records.update(resolved, 'start_card_generation', (r) => {
          r.stage = 'card';
          r.title = args.title;
          r.draft = args.draft_content;
          r.content = args.draft_content;
          r.tags = tags;
          delete r.revise;
          delete r.heading;
          delete r.content_summary;
        })) ?? resolved?.record;
      return withWarnings(
        {
          status: 'card_generation_started',
          received: { title: args.title, content_length: wordCount(args.draft_content), tags },
          next_action: nextAction(
            'title_reflection',
            "Reflect on whether the title needs modification based on user feedback or content analysis. Pass the user's feedback on the title, if any.",
            { original_title: args.title, ...idOf(record) },
          ),
        },
        warnings,
      );
    },
  });
}
