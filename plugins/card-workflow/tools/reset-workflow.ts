import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { ANSWER_ONLY, nextAction, nextActionOutput, violationsOutput } from '../workflow.js';
import { str } from '../../../kernel/tool-output.js';

/** Utility: the server keeps no state, so a reset is the agent dropping what it saved. */
export const resetWorkflowTool = defineTool({
  name: 'reset_workflow',
  description: 'Recover from a stuck workflow: start over from start_draft_generation.',
  input: z.object({}),
  output: z.object({ status: str, message: str, next_action: nextActionOutput }),
  annotations: { title: 'Reset workflow', ...ANSWER_ONLY },
  async handler() {
    return {
      status: 'workflow_reset',
      message:
        'The server keeps no workflow state, so nothing is left on this side. Discard the title, content, heading, template and tags you saved in your context, then start again.',
      next_action: nextAction('start_draft_generation', 'Ask the user for the topic (or reuse it), then call start_draft_generation.'),
    };
  },
});
