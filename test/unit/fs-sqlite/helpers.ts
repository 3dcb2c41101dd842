/** Opens the real fs-sqlite backend on a temp vault (nothing mocked) and cleans up after. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { NoteStore } from '../../../kernel/backend.js';
import { silentLogger } from '../../../kernel/logger.js';
import { fsSqliteBackend, fsSqliteOptions } from '../../../backends/fs-sqlite/index.js';
import { removeDir, tempDir } from '../../support/temp.js';

export interface OpenVault {
  root: string;
  store: NoteStore;
  /** Closes the store (the vault folder stays until the test ends). */
  close(): Promise<void>;
  /** Closes and opens the same folder again. */
  reopen(): Promise<OpenVault>;
}

/** Registers per-test cleanup; returns helpers bound to it. */
export function useVaults() {
  const roots: string[] = [];
  const open: OpenVault[] = [];
  afterEach(async () => {
    for (const vault of open.splice(0)) await vault.close();
    await Promise.all(roots.splice(0).map(removeDir));
  });

  async function openVault(root: string, options: Record<string, unknown> = {}): Promise<OpenVault> {
    const instance = await fsSqliteBackend.create({
      folder: root,
      options: fsSqliteOptions.parse(options),
      logger: silentLogger(),
      readOnly: false,
    });
    let closed = false;
    const vault: OpenVault = {
      root,
      store: instance.store!,
      async close() {
        if (closed) return;
        closed = true;
        await instance.store!.close();
      },
      async reopen() {
        await vault.close();
        return openVault(root, options);
      },
    };
    open.push(vault);
    return vault;
  }

  /** A temp folder holding the given files (string or raw bytes), not yet opened. */
  async function vaultDir(files: Record<string, string | Uint8Array> = {}): Promise<string> {
    const root = await tempDir();
    roots.push(root);
    for (const [rel, data] of Object.entries(files)) await writeAt(root, rel, data);
    return root;
  }

  return { openVault, vaultDir, track: (root: string) => roots.push(root) };
}

export async function writeAt(root: string, rel: string, data: string | Uint8Array): Promise<void> {
  const file = path.join(root, ...rel.split('/'));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, data);
}

export async function readAt(root: string, rel: string): Promise<string> {
  return fs.readFile(path.join(root, ...rel.split('/')), 'utf8');
}

export const note = (title: string, body: string, extra = ''): string => `---\ntitle: ${title}\n${extra}---\n\n${body}`;
