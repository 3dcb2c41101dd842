import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { ANSWER_ONLY, idOf, nextAction, nextActionOutput, type CardWorkflow } from '../workflow.js';
import { str } from '../../../toolkit/tool-output.js';

/** Stage 1 starts: a new workflow record (decision 040); the answer names the next step. */
export function startDraftGenerationTool(wf: CardWorkflow) {
  return defineTool({
    name: 'start_draft_generation',
    description: 'Start a Zettelkasten card (stage 1: draft). Then follow next_action in every answer.',
    input: z.object({ topic: z.string().trim().min(1).max(1000).describe("the card topic, in the user's words") }),
    output: z.object({ status: str, stage: str, topic: str, next_action: nextActionOutput }),
    annotations: { title: 'Start draft generation', ...ANSWER_ONLY },
    async handler(args) {
      const record = await wf.records.update(undefined, 'start_draft_generation', (r) => {
        r.topic = args.topic;
      });
      return {
        status: 'workflow_started',
        stage: 'draft',
        topic: args.topic,
        next_action: nextAction(
          'title_thinker',
          'Please call title_thinker with your understanding of the conversation context.',
          { topic: args.topic, ...idOf(record) },
        ),
      };
    },
  });
}
