/** A real fs-sqlite backend on a temp vault written from frontmatter + body pairs; nothing mocked. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll } from 'vitest';
import type { NoteStore } from '../../../kernel/backend.js';
import { silentLogger } from '../../../kernel/logger.js';
import { fsSqliteBackend, fsSqliteOptions } from '../../../backends/fs-sqlite/index.js';
import type { FsSqliteSearchIndex } from '../../../backends/fs-sqlite/search.js';
import { removeDir, tempDir } from '../../support/temp.js';

export interface SearchVault {
  root: string;
  store: NoteStore;
  search: FsSqliteSearchIndex;
  close(): Promise<void>;
}

export interface NoteSpec {
  title: string;
  body: string;
  /** Extra frontmatter lines, YAML. */
  yaml?: string;
  created?: string;
  updated?: string;
}

/** Writes `type/<name>.md` files, opens the backend (which indexes them) and closes it after the file's tests. */
export async function openSearchVault(notes: Record<string, NoteSpec>): Promise<SearchVault> {
  const root = await tempDir('nk-search-');
  for (const [id, spec] of Object.entries(notes)) {
    const file = path.join(root, ...id.split('/'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    const times = `created: ${spec.created ?? '2024-01-01T00:00:00.000Z'}\nupdated: ${spec.updated ?? spec.created ?? '2024-01-01T00:00:00.000Z'}\n`;
    await fs.writeFile(
      file,
      `---\ntitle: ${JSON.stringify(spec.title)}\n${times}${spec.yaml ?? ''}---\n\n${spec.body}\n`,
    );
  }
  const instance = await fsSqliteBackend.create({
    folder: root,
    options: fsSqliteOptions.parse({}),
    logger: silentLogger(),
    readOnly: false,
  });
  const vault: SearchVault = {
    root,
    store: instance.store as NoteStore,
    search: instance.search as FsSqliteSearchIndex,
    async close() {
      await instance.search?.close();
      await instance.store?.close();
      await removeDir(root);
    },
  };
  afterAll(() => vault.close());
  return vault;
}

export const ids = (page: { hits: Array<{ id: string }> }) => page.hits.map((h) => h.id);
