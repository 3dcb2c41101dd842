/**
 * The NoteStore contract run against markdown-git on a fresh temp memory root per test (a
 * plain folder: timestamps fall back to file times, as seed 002 specifies for uncommitted files).
 */
import { describe, expect, it } from 'vitest';
import { capabilityShapeProblems, type BackendDefinition } from '../../kernel/backend.js';
import { silentLogger } from '../../kernel/logger.js';
import { markdownGitBackend, markdownGitOptions } from '../../backends/markdown-git/index.js';
import { removeDir, tempDir } from '../support/temp.js';
import { describeNoteStoreContract, type ContractSubject } from '../../testing/index.js';
import { filesOutside } from '../../testing/index.js';

async function openMarkdownGit(): Promise<
  ContractSubject & { instance: Awaited<ReturnType<typeof markdownGitBackend.create>> }
> {
  const root = await tempDir();
  const instance = await markdownGitBackend.create({
    folder: root,
    options: markdownGitOptions.parse({}),
    logger: silentLogger(),
    readOnly: false,
  });
  const store = instance.store!;
  return {
    instance,
    store,
    root,
    outside: filesOutside(root),
    capabilities: markdownGitBackend.capabilities,
    extensions: markdownGitBackend.extensions ?? [],
    async close() {
      await store.close();
      await removeDir(root);
    },
  };
}

// Seed 002 entries are pure markdown: no `frontmatter` capability, so the contract checks that
// metadata and spaced tags are refused instead of round-tripping them.
describeNoteStoreContract('markdown-git', openMarkdownGit);

describe('markdown-git specifics of the contract', () => {
  it('declares exactly the members it has (files, git-history; no watch, no types)', async () => {
    const subject = await openMarkdownGit();
    try {
      expect(subject.instance.search).toBeUndefined();
      expect(capabilityShapeProblems(markdownGitBackend as BackendDefinition<unknown>, subject.instance)).toEqual([]);
    } finally {
      await subject.close();
    }
  });

  it('the by-design exceptions pass once metadata and spaced tags are left out', async () => {
    const subject = await openMarkdownGit();
    try {
      const s = subject.store;
      const note = await s.create({ title: 'Before', content: 'old body\n', tags: ['t1'] });
      const renamed = await s.update(note.id, { title: 'After' }, note.contentHash);
      expect(renamed).toMatchObject({
        id: note.id,
        title: 'After',
        content: 'old body\n',
        tags: ['t1'],
        created: note.created,
      });
      const a = await s.update(note.id, { content: 'same!\n' }, renamed.contentHash);
      const b = await s.update(note.id, { tags: ['t2'] }, a.contentHash);
      expect(new Set([note.contentHash, renamed.contentHash, a.contentHash, b.contentHash]).size).toBe(4);
      await expect(s.create({ title: 'Meta', content: 'x', metadata: { priority: 3 } })).rejects.toMatchObject({
        code: 'validation_failed',
        details: { field: 'metadata.priority' },
      });
      await expect(s.create({ title: 'Spaced', content: 'x', tags: ['beta gamma'] })).rejects.toMatchObject({
        code: 'validation_failed',
        details: { field: 'tags' },
      });
      expect(await s.count()).toBe(1);
    } finally {
      await subject.close();
    }
  });
});
