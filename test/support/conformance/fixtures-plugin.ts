/**
 * The diagnostic tools the MCP conformance suite calls by name to exercise what a server does when
 * a tool logs or asks the client for input (its reference server has them; notekernel's own tools
 * never ask). They run through the same kernel, invoke() and MCP adapter as every tool: the
 * checks then test notekernel's per-request logging and its input-required path.
 */
import { z } from 'zod';
import {
  definePlugin,
  defineTool,
  InputNeededError,
  type PromptDefinition,
  type Question,
} from '../../../app/index.js';

const form = (message: string, field: string, type = 'string'): Question => ({
  message,
  schema: { type: 'object', properties: { [field]: { type } }, required: [field] },
});
const completion = (prompt: string): Question => ({ kind: 'completion', message: prompt, prompt, maxTokens: 50 });

/** Asks each round's questions until all are answered, then answers with what it was told. */
const askingTool = (name: string, description: string, rounds: Record<string, Question>[]) =>
  defineTool({
    name,
    description,
    input: z.object({}),
    annotations: { readOnlyHint: true },
    async handler(_args, ctx) {
      for (const round of rounds)
        if (Object.keys(round).some((key) => !(key in ctx.answers))) throw new InputNeededError(round);
      return { answers: ctx.answers };
    },
  });

const optional = (question: Question): Question => ({ ...question, optional: true });

/** The suite's input-required scenarios, by the tool each calls. */
const INPUT_REQUIRED_TOOLS: Array<[string, Record<string, Question>[]]> = [
  ['test_input_required_result_elicitation', [{ user_name: form('What is your name?', 'name') }]],
  ['test_input_required_result_sampling', [{ capital: completion('What is the capital of France?') }]],
  ['test_input_required_result_list_roots', [{ roots: { kind: 'roots', message: 'Which folders?' } }]],
  [
    'test_input_required_result_multiple_inputs',
    [
      {
        name: form('Name?', 'name'),
        capital: completion('What is the capital of France?'),
        roots: { kind: 'roots', message: 'Which folders?' },
      },
    ],
  ],
  ['test_input_required_result_multi_round', [{ name: form('Name?', 'name') }, { color: form('Colour?', 'color') }]],
  ['test_input_required_result_request_state', [{ ok: form('Go on?', 'ok', 'boolean') }]],
  ['test_input_required_result_tampered_state', [{ ok: form('Go on?', 'ok', 'boolean') }]],
  [
    'test_input_required_result_capabilities',
    [{ confirm: optional(form('Confirm?', 'ok', 'boolean')), summary: optional(completion('Say hello.')) }],
  ],
];

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
    const askingPrompt: PromptDefinition = {
      name: 'test_input_required_result_prompt',
      description: 'Asks for some context before it writes its message.',
      async get(_args, context) {
        const answer = context?.answers.context;
        if (answer === undefined) throw new InputNeededError({ context: form('Some context?', 'context') });
        return [{ role: 'user', text: `Context: ${String(answer?.context ?? '(declined)')}` }];
      },
    };
    return {
      prompts: [askingPrompt],
      tools: [
        logging,
        askingTool('test_streaming_elicitation', 'Asks the client to confirm before it answers.', [
          { confirm: form('Confirm to go on?', 'confirmed', 'boolean') },
        ]),
        askingTool('test_missing_capability', "Needs the client's model (sampling) to answer.", [
          { summary: completion('Say hello in three words.') },
        ]),
        ...INPUT_REQUIRED_TOOLS.map(([name, rounds]) => askingTool(name, `Conformance: ${name}.`, rounds)),
      ],
    };
  },
});
