import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { titleAdvice, validateTitle } from '../conventions.js';
import {
  ANSWER_ONLY,
  idOf,
  nextAction,
  nextActionOutput,
  recordField,
  recordWarnings,
  stageField,
  violationsOutput,
  withWarnings,
  workflowIdField,
  type CardWorkflow,
  type Stage,
} from '../workflow.js';
import { str, warningsOutput } from '../../../toolkit/tool-output.js';

/**
 * Commit: checks the title against the naming convention. A title that breaks a rule is answered
 * (not failed) with each rule, an example and next_action back to generate_title. Called with
 * the title alone, as seed 001 does, the stage is the workflow record's: stage 2 goes on to
 * content_reflection, stage 1 to content_thinker.
 */
export function commitTitleTool(wf: CardWorkflow) {
  return defineTool({
    name: 'commit_title',
    description: 'Submit the card title; it is checked against the naming convention.',
    input: z.object({
      title: z.string().trim().min(1).max(500).describe('the generated title, e.g. 20251021-MCP-Tool-Driven-Design'),
      stage: stageField,
      thinking_record_id: recordField,
      workflow_id: workflowIdField,
    }),
    output: z.object({
      status: str,
      stage: str.optional(),
      title: str,
      violations: violationsOutput.optional(),
      message: str.optional(),
      next_action: nextActionOutput,
      ...warningsOutput,
    }),
    annotations: { title: 'Commit title', ...ANSWER_ONLY },
    async handler(args) {
      const resolved = await wf.records.resolve(args.workflow_id);
      const stage: Stage = args.stage ?? resolved.record?.stage ?? 'draft';
      const warnings = [
        ...resolved.warnings,
        ...recordWarnings(
          'commit_title',
          args.thinking_record_id,
          stage === 'card' ? ['title_reflection'] : ['title_thinker'],
          resolved.record,
          wf.records,
        ),
      ];
      const violations = validateTitle(wf.conventions, args.title);
      if (violations.length) {
        const rules = violations.map((v) => v.rule).join(', ');
        const feedback = violations.map((v) => v.message).join(' ');
        const record =
          (await wf.records.update(resolved, 'commit_title', (r) => {
            r.stage = stage;
            r.revise = { part: 'title', original: args.title, feedback };
          })) ?? resolved.record;
        return withWarnings(
          {
            status: 'title_rejected',
            title: args.title,
            violations,
            message: `The title breaks the naming convention (${rules}): ${feedback} Example: ${violations[0]?.example}`,
            next_action: nextAction(
              'generate_title',
              `Title rejected (${rules}). Call generate_title again and write a title that fixes it.`,
              {
                stage,
                original_title: args.title,
                user_feedback: feedback,
                ...idOf(record),
              },
            ),
          },
          warnings,
        );
      }
      warnings.push(...titleAdvice(wf.conventions, args.title));
      const record =
        (await wf.records.update(resolved, 'commit_title', (r) => {
          r.stage = stage;
          r.title = args.title;
          delete r.revise;
        })) ?? resolved.record;
      const next =
        stage === 'card'
          ? nextAction(
              'content_reflection',
              'Title finalized. Proceed to reflect on content: call content_reflection with the draft content.',
              {
                title: args.title,
                ...(record?.content !== undefined ? { original_content: record.content } : {}),
                ...idOf(record),
              },
            )
          : nextAction('content_thinker', 'Title confirmed. Now call content_thinker to plan the content.', {
              title: args.title,
              ...idOf(record),
            });
      return withWarnings({ status: 'title_confirmed', stage, title: args.title, next_action: next }, warnings);
    },
  });
}
