/** Shared by the links tests: a flint kernel on a temp vault, and short ways to write notes. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { Vault } from '../../../kernel/vault.js';
import { LINK_INDEX, type LinkIndexService } from '../../../plugins/links/service.js';
import { createTestKernel, type TestKernel } from '../../support/temp.js';

export function useFlint() {
  const open: TestKernel[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });
  return async function flint(options: Parameters<typeof createTestKernel>[0] = {}): Promise<TestKernel> {
    const t = await createTestKernel({ profile: 'flint', ...options });
    open.push(t);
    return t;
  };
}

export async function create(vault: Vault, title: string, content: string, type = 'general'): Promise<string> {
  const created = (await vault.call('create_note', { type, title, content })) as { id: string };
  return created.id;
}

export async function hashOf(vault: Vault, id: string): Promise<string> {
  return ((await vault.call('get_note', { identifier: id })) as { content_hash: string }).content_hash;
}

export async function contentOf(vault: Vault, id: string): Promise<string> {
  return ((await vault.call('get_note', { identifier: id })) as { content: string }).content;
}

export function linkIndex(vault: Vault): LinkIndexService {
  return vault.resolve(LINK_INDEX);
}

export async function writeNoteFile(root: string, rel: string, title: string, body: string): Promise<void> {
  const file = path.join(root, ...rel.split('/'));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, `---\ntitle: ${JSON.stringify(title)}\n---\n\n${body}`);
}

export interface Row {
  source_note_id: string;
  target_note_id: string | null;
  target_title: string;
  link_text: string | null;
  line_number: number;
}
