import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { validateTitle } from '../conventions.js';
import { ANSWER_ONLY, nextAction, normaliseTags, tagsField, withWarnings, wordCount, type CardWorkflow, nextActionOutput, violationsOutput } from '../workflow.js';
import { num, str, strs, warningsOutput } from '../../../kernel/tool-output.js';

/** Stage 2 starts with the user's final draft, the title and the user's own tags. */
export function startCardGenerationTool(wf: CardWorkflow) {
  return defineTool({
    name: 'start_card_generation',
    description: "Start stage 2 (card) with the reviewed draft, its title and the user's tags. Then follow next_action.",
    input: z.object({
      draft_content: z.string().trim().min(1).max(200_000).describe('the draft as the user approved it (edits included)'),
      title: z.string().trim().min(1).max(500).describe('the card title from stage 1'),
      tags: tagsField,
    }),
    output: z.object({ status: str, received: z.object({ title: str, content_length: num, tags: strs }), next_action: nextActionOutput, ...warningsOutput }),
    annotations: { title: 'Start card generation', ...ANSWER_ONLY },
    async handler(args) {
      const tags = normaliseTags(args.tags);
      const warnings: string[] = [];
      if (tags.length === 0) warnings.push('No tags given: tags are the user\'s own; ask the user for them before formatting the card.');
      if (validateTitle(wf.conventions, args.title).length) warnings.push('The title breaks the naming convention; title_reflection will ask for a revision.');
      return withWarnings(
        {
          status: 'card_generation_started',
          received: { title: args.title, content_length: wordCount(args.draft_content), tags },
          next_action: nextAction(
            'title_reflection',
            'Reflect on whether the title needs modification based on user feedback or content analysis. Pass the user\'s feedback on the title, if any.',
            { original_title: args.title },
          ),
        },
        warnings,
      );
    },
  });
}
