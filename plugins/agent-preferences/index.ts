/**
 * agent-preferences (seed 004): what the user told the agent to remember, one bullet per
 * preference in `Preferences.md` at the vault root — a note the user can read and edit in
 * Obsidian. Three tools change and list it; the same text is served as the MCP prompt
 * `user_preferences` and the resource `notekernel://preferences`, so any MCP client can load it
 * into its system prompt.
 */
import { z } from 'zod';
import { requireMember } from '../../kernel/backend.js';
import { definePlugin } from '../../kernel/plugin.js';
import { defineTool } from '../../kernel/tool.js';
import {
  addPreference,
  PREFERENCES_FILE,
  preferencesPrompt,
  readPreferences,
  removePreference,
} from './preferences-file.js';

/** A preference line as the tools show it. */
const preferenceOutput = z.object({ line_number: z.number(), preference: z.string() });

export const agentPreferencesPlugin = definePlugin({
  id: 'agent-preferences',
  description:
    'User preferences the agent keeps in Preferences.md (save, list, remove), also served as an MCP prompt and resource.',
  requires: ['files'],
  register(ctx) {
    const files = requireMember(ctx.store.files, ctx.vault.storageBackend, 'files', 'agent-preferences');
    const tools = [
      defineTool({
        name: 'save_preference',
        description: `Save a user preference (a correction, a standing instruction) as a bullet in ${PREFERENCES_FILE} at the vault root (made if missing).`,
        input: z.object({
          preference: z
            .string()
            .trim()
            .min(1)
            .max(10_000)
            .describe('the preference, one line, e.g. "Answer in British English"'),
        }),
        output: z.object({ saved: preferenceOutput, file: z.string() }),
        annotations: {
          title: 'Save a preference',
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
          openWorldHint: false,
        },
        handler: async (args, tctx) => ({
          saved: await addPreference(tctx.notes, files, args.preference),
          file: PREFERENCES_FILE,
        }),
      }),
      defineTool({
        name: 'list_preferences',
        description: `Every saved preference with its line number (1-based), as remove_preference takes it.`,
        input: z.object({}),
        output: z.object({ file: z.string(), preferences: z.array(preferenceOutput) }),
        annotations: { title: 'List preferences', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
        handler: async () => ({ file: PREFERENCES_FILE, preferences: await readPreferences(files) }),
      }),
      defineTool({
        name: 'remove_preference',
        description: 'Remove a preference by its line number from list_preferences (1-based).',
        input: z.object({
          line_number: z.number().int().min(1).max(1_000_000).describe('the number list_preferences shows, 1-based'),
        }),
        output: z.object({ removed: preferenceOutput, file: z.string() }),
        annotations: {
          title: 'Remove a preference',
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: false,
          openWorldHint: false,
        },
        handler: async (args, tctx) => ({
          removed: await removePreference(tctx.notes, files, args.line_number),
          file: PREFERENCES_FILE,
        }),
      }),
    ];
    return {
      tools,
      prompts: [
        {
          name: 'user_preferences',
          description: `The user's saved preferences (${PREFERENCES_FILE}) as a system-prompt section.`,
          get: async () => [{ role: 'user' as const, text: preferencesPrompt(await readPreferences(files)) }],
        },
      ],
      resources: [
        {
          uri: 'notekernel://preferences',
          name: 'User preferences',
          description: `The user's saved preferences from ${PREFERENCES_FILE}, as a system-prompt section.`,
          mimeType: 'text/markdown',
          read: async () => preferencesPrompt(await readPreferences(files)),
        },
      ],
    };
  },
});
