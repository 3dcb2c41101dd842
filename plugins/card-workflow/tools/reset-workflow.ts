import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { ANSWER_ONLY, nextAction, nextActionOutput, workflowIdField, type CardWorkflow } from '../workflow.js';
import { str } from '../../../toolkit/tool-output.js';

/** Utility: closes the workflow record, so argument-less calls stop defaulting to it. */
export function resetWorkflowTool(wf: CardWorkflow) {
  return defineTool({
    name: 'reset_workflow',
    description: 'Recover from a stuck workflow: close it and start over from start_draft_generation.',
    input: z.object({ workflow_id: workflowIdField }),
    output: z.object({ status: str, message: str, next_action: nextActionOutput }),
    annotations: { title: 'Reset workflow', ...ANSWER_ONLY },
    async handler(args) {
      const resolved = await wf.records.resolve(args.workflow_id);
      const closed = resolved.record
        ? await wf.records.update(resolved, 'reset_workflow', (r) => void (r.status = 'reset'))
        : undefined;
      return {
        status: 'workflow_reset',
        message: closed
          ? `Workflow ${closed.workflow_id} is closed: calls without arguments no longer continue it. Discard the title, content, heading, template and tags you saved in your context, then start again.`
          : 'No open workflow record to close. Discard the title, content, heading, template and tags you saved in your context, then start again.',
        next_action: nextAction(
          'start_draft_generation',
          'Ask the user for the topic (or reuse it), then call start_draft_generation.',
        ),
      };
    },
  });
}
