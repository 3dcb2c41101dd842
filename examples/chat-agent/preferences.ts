/**
 * The user's standing preferences, read fresh for every request so one saved during a
 * conversation applies from the next message on. A server that offers them (a prompt or a
 * resource with "preferences" in its name, as notekernel's agent-preferences plugin does) is
 * asked; otherwise `Preferences.md` at the vault root is read, as the seed's agent did.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';

export type PreferencesSource =
  | { kind: 'prompt'; name: string }
  | { kind: 'resource'; uri: string }
  | { kind: 'file'; file: string };

export interface Preferences {
  source: PreferencesSource;
  /** The preferences as text, '' when there are none. */
  read(): Promise<string>;
}

const PREFERENCES = /preference/i;
export const PREFERENCES_FILE = 'Preferences.md';

async function findSource(client: Client, vault: string): Promise<PreferencesSource> {
  const capabilities = client.getServerCapabilities() ?? {};
  if (capabilities.prompts) {
    const { prompts } = await client.listPrompts();
    const prompt = prompts.find((p) => PREFERENCES.test(p.name) && !(p.arguments ?? []).some((a) => a.required));
    if (prompt) return { kind: 'prompt', name: prompt.name };
  }
  if (capabilities.resources) {
    const { resources } = await client.listResources();
    const resource = resources.find((r) => PREFERENCES.test(r.uri) || PREFERENCES.test(r.name));
    if (resource) return { kind: 'resource', uri: resource.uri };
  }
  return { kind: 'file', file: path.join(vault, PREFERENCES_FILE) };
}

async function readSource(client: Client, source: PreferencesSource): Promise<string> {
  switch (source.kind) {
    case 'prompt': {
      const { messages } = await client.getPrompt({ name: source.name, arguments: {} });
      return messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    }
    case 'resource': {
      const { contents } = await client.readResource({ uri: source.uri });
      return contents.map((c) => ('text' in c && typeof c.text === 'string' ? c.text : '')).join('\n');
    }
    case 'file':
      return fs.readFile(source.file, 'utf8').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return '';
        throw err;
      });
  }
}

export async function preferencesOf(client: Client, vault: string): Promise<Preferences> {
  const source = await findSource(client, vault);
  return { source, read: async () => (await readSource(client, source)).trim() };
}
