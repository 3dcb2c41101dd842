/**
 * The diagnostic tools the MCP conformance suite calls by name to exercise what a server does when
 * a tool logs or asks the client for input (its reference server has them; notekernel's own tools
 * never ask). They run through the same kernel, invoke() and MCP adapter as every tool: the
 * checks then test notekernel's per-request logging and its input-required path.
 */
import { z } from 'zod';
import { definePlugin, defineTool, InputNeededError, type Question } from '../../../app/index.js';

const confirm = {
  confirm: {
    message: 'Confirm to go on?',
    schema: { type: 'object' as const, properties: { confirmed: { type: 'boolean' } }, required: ['confirmed'] },
  },
};

const complete = {
  summary: { kind: 'completion' as const, message: 'Summarise', prompt: 'Say hello in three words.', maxTokens: 20 },
};

/** Asks once; the second try answers with what the user said. */
const askingTool = (name: string, description: string, questions: Record<string, Question>) =>
  defineTool({
    name,
    description,
    input: z.object({}),
    annotations: { readOnlyHint: true },
    async handler(_args, ctx) {
      const [key] = Object.keys(questions) as [string];
      if (!(key in ctx.answers)) throw new InputNeededError(questions);
      return { answer: ctx.answers[key] ?? 'declined' };
    },
  });

export const conformanceFixturesPlugin = definePlugin({
  id: 'conformance-fixtures',
  description: 'Diagnostic tools the MCP conformance suite calls (tests only).',
  config: z.object({}),
  register() {
    const logging = defineTool({
      name: 'test_logging_tool',
      description: 'Logs three records while it runs (debug, info, warning).',
      input: z.object({}),
      annotations: { readOnlyHint: true },
      async handler(_args, ctx) {
        ctx.logger.debug('conformance: a debug record');
        ctx.logger.info('conformance: an info record');
        ctx.logger.warn('conformance: a warning record');
        return { logged: 3 };
      },
    });
    return {
      tools: [
        logging,
        askingTool('test_streaming_elicitation', 'Asks the client to confirm before it answers.', confirm),
        askingTool('test_missing_capability', "Needs the client's model (sampling) to answer.", complete),
      ],
    };
  },
});
