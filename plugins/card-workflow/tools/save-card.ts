import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import type { WorkflowRecord } from '../records.js';
import { workflowIdField, type CardWorkflow } from '../workflow.js';
import { bool, nullableStr, str, warningsOutput } from '../../../toolkit/tool-output.js';

/**
 * Persister: writes the card into the output directory (the one tool that writes a note). The
 * workflow it finishes (its workflow_id, or the open one whose title names this file) is closed,
 * so argument-less calls no longer default to it.
 */
export function saveCardTool(wf: CardWorkflow) {
  return defineTool({
    name: 'save_card',
    description: `Save the formatted card as a markdown file in the output directory (${wf.externalOutput ?? (wf.outputDirectory || 'the vault root')}).`,
    input: z.object({
      formatted_card: z.string().min(1).max(1_000_000).describe('the card exactly as apply_template returned it'),
      filename: z
        .string()
        .max(1000)
        .describe('file name only, e.g. 20251021-MCP-Stateless-Workflow.md; .md is added if missing'),
      workflow_id: workflowIdField,
    }),
    output: z.object({
      status: str,
      filepath: str,
      relative_path: str,
      filename: str,
      requested_filename: str,
      sanitized: bool,
      created: bool,
      backup_created: bool,
      unchanged: bool.optional(),
      backup_path: str.optional(),
      note_id: nullableStr,
      message: str,
      ...warningsOutput,
    }),
    annotations: {
      title: 'Save card',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    async handler(args) {
      const saved = await wf.saveCard(args.formatted_card, args.filename);
      const stem = (name: string) => name.replace(/\.md$/i, '');
      const names = (record: WorkflowRecord) =>
        record.title !== undefined && stem(saved.filename) === stem(record.title);
      const resolved = await wf.records.resolve(args.workflow_id, names);
      const record = resolved.record;
      if (record && record.status === 'open' && (resolved.by === 'workflow_id' || names(record))) {
        await wf.records.update(resolved, 'save_card', (r) => {
          r.status = 'saved';
        });
      }
      return saved;
    },
  });
}
