/** The NoteStore contract run against fs-sqlite on a fresh temp vault per test. */
import { describe, expect, it } from 'vitest';
import { capabilityShapeProblems, type BackendDefinition } from '../../kernel/backend.js';
import { silentLogger } from '../../kernel/logger.js';
import { fsSqliteBackend, fsSqliteOptions } from '../../backends/fs-sqlite/index.js';
import { removeDir, tempDir } from '../support/temp.js';
import { describeNoteStoreContract, type ContractSubject } from '../../testing/index.js';
import { filesOutside } from '../../testing/index.js';

async function openFsSqlite(): Promise<
  ContractSubject & { instance: Awaited<ReturnType<typeof fsSqliteBackend.create>> }
> {
  const root = await tempDir();
  const instance = await fsSqliteBackend.create({
    folder: root,
    options: fsSqliteOptions.parse({}),
    logger: silentLogger(),
    readOnly: false,
  });
  const store = instance.store!;
  return {
    instance,
    store,
    root,
    outside: filesOutside(root),
    capabilities: fsSqliteBackend.capabilities,
    extensions: fsSqliteBackend.extensions ?? [],
    async close() {
      await instance.search?.close();
      await store.close();
      await removeDir(root);
    },
  };
}

describeNoteStoreContract('fs-sqlite', openFsSqlite);

describe('fs-sqlite specifics of the contract', () => {
  it('declares exactly the members it has', async () => {
    const subject = await openFsSqlite();
    try {
      expect(subject.instance.store).toBeDefined();
      expect(subject.instance.search).toBeDefined();
      expect(capabilityShapeProblems(fsSqliteBackend as BackendDefinition<unknown>, subject.instance)).toEqual([]);
    } finally {
      await subject.close();
    }
  });

  it('a second create with the same type and title is a conflict (ids come from the slug)', async () => {
    const subject = await openFsSqlite();
    try {
      const first = await subject.store.create({ title: 'Twin', content: 'one' });
      expect(first.id).toBe('general/twin.md');
      await expect(subject.store.create({ title: 'Twin', content: 'two' })).rejects.toMatchObject({
        code: 'conflict',
        details: { id: 'general/twin.md' },
      });
      const racers = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => subject.store.create({ title: 'Racer', content: String(i) })),
      );
      expect(racers.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    } finally {
      await subject.close();
    }
  });
});
