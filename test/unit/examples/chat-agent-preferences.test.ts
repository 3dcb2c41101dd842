/**
 * Where examples/chat-agent takes the user's preferences from: a server's prompt, else its
 * resource, else `Preferences.md` at the vault root. Real notekernel MCP servers (in-memory
 * pair) on kernels whose catalogue adds a plugin serving preferences the way a server may.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { preferencesOf } from '../../../examples/chat-agent/preferences.js';
import { systemPrompt } from '../../../examples/chat-agent/system-prompt.js';
import { connectInMemory } from '../../support/mcp-in-memory.js';
import { definePlugin, type PluginContribution } from '../../../kernel/index.js';
import type { Catalogue } from '../../../profiles/catalogue-types.js';
import { builtinCatalogue } from '../../../profiles/catalogue.js';
import { createTestKernel, type TestKernel } from '../../support/temp.js';

let saved = '- Metric units.';
const open: Array<{ client: Client; kernel: TestKernel }> = [];
afterEach(async () => {
  for (const { client, kernel } of open.splice(0)) {
    await client.close();
    await kernel.close();
  }
});

/** flint's notes plus one plugin contributing what `serves` says. */
async function connect(serves: PluginContribution): Promise<{ client: Client; root: string }> {
  const plugin = definePlugin({ id: 'preferences-fixture', description: 'serves preferences', register: () => serves });
  const catalogue: Catalogue = {
    ...builtinCatalogue,
    plugins: [...builtinCatalogue.plugins, plugin],
    profiles: [
      ...builtinCatalogue.profiles,
      {
        id: 'with-prefs',
        description: 'flint + preferences',
        storage: { backend: 'fs-sqlite' },
        plugins: { 'note-types': true, notes: true, 'preferences-fixture': true },
      },
    ],
  };
  const kernel = await createTestKernel({ profile: 'with-prefs', catalogue });
  const client = await connectInMemory(kernel.vault, { name: 'chat-agent-preferences' });
  open.push({ client, kernel });
  return { client, root: kernel.root };
}

const prompt = (name: string, required = false) => ({
  name,
  description: "the user's preferences",
  ...(required ? { arguments: [{ name: 'topic', description: 'needed', required: true }] } : {}),
  get: async () => [{ role: 'user' as const, text: saved }],
});

describe("the chat agent's preferences", () => {
  it('come from a prompt named for them, asked afresh each time', async () => {
    const { client, root } = await connect({
      prompts: [prompt('summarise', false), prompt('preferences_for_topic', true), prompt('user_preferences')],
    });
    await fs.writeFile(path.join(root, 'Preferences.md'), '- not this file');
    const preferences = await preferencesOf(client, root);
    expect(preferences.source).toEqual({ kind: 'prompt', name: 'user_preferences' });
    expect(await preferences.read()).toBe('- Metric units.');
    saved = '- Imperial units.';
    expect(await preferences.read()).toBe('- Imperial units.');
  });

  it('else from a resource named for them', async () => {
    const { client, root } = await connect({
      resources: [
        {
          uri: 'notes://preferences',
          name: 'Preferences',
          description: 'saved preferences',
          mimeType: 'text/markdown',
          read: async () => '- Short answers.',
        },
      ],
    });
    const preferences = await preferencesOf(client, root);
    expect(preferences.source).toEqual({ kind: 'resource', uri: 'notes://preferences' });
    expect(await preferences.read()).toContain('Short answers.');
  });

  it('else from Preferences.md at the vault root (none yet: no section in the prompt)', async () => {
    const { client, root } = await connect({});
    const preferences = await preferencesOf(client, root);
    expect(preferences.source).toEqual({ kind: 'file', file: path.join(root, 'Preferences.md') });
    expect(await preferences.read()).toBe('');
    expect(systemPrompt(await preferences.read())).not.toContain('User Preferences');
    await fs.writeFile(path.join(root, 'Preferences.md'), '\n- Cite note paths.\n');
    expect(systemPrompt(await preferences.read())).toMatch(/## User Preferences\n.*\n- Cite note paths\.$/);
  });

  it("come after the habits the server's tools call for", () => {
    const prompt = systemPrompt('- Be terse.', ['search_vault', 'save_preference', 'log_interaction']);
    expect(prompt).toContain('save it with save_preference');
    expect(prompt).toContain('record it with log_interaction');
    expect(prompt.indexOf('log_interaction')).toBeLessThan(prompt.indexOf('## User Preferences'));
    expect(systemPrompt('', ['create_note', 'constructor'])).not.toMatch(/save_preference|log_interaction|function/);
  });
});
