/**
 * card-workflow (seed 001): a stateless, inspectable two-stage draft → card workflow. Think
 * tools record reasoning, generator tools return embedded prompts, every answer names the
 * next_action, and save_card writes the card into the vault, where it is a note like any other.
 */
import fs from 'node:fs/promises';
import { definePlugin } from '../../kernel/plugin.js';
import { cardWorkflowOptions, type CardWorkflowOptions } from './options.js';
import { createCardWorkflow } from './setup.js';
import { cardWorkflowTools } from './tools/index.js';

export { cardWorkflowOptions, type CardWorkflowOptions } from './options.js';
export type { CardWorkflow, NextAction } from './workflow.js';

export const cardWorkflowPlugin = definePlugin<CardWorkflowOptions>({
  id: 'card-workflow',
  description:
    'Zettelkasten two-stage draft → card workflow: think tools, embedded prompts, next_action chaining, templates, safe save_card.',
  requires: ['files', 'free-metadata'],
  config: cardWorkflowOptions,
  register(ctx) {
    const workflow = createCardWorkflow(ctx);
    return {
      tools: cardWorkflowTools(workflow),
      hooks: {
        async 'vault.init'() {
          if (workflow.externalOutput) await fs.mkdir(workflow.externalOutput, { recursive: true });
          else if (workflow.outputDirectory) await ctx.store.files?.mkdir(workflow.outputDirectory);
        },
      },
      dispose: () => workflow.dispose(),
    };
  },
});
