/**
 * Every backend of the built-in catalogue runs the contract suites its kind calls for: a storage
 * backend the NoteStore suite, a search backend the SearchIndex suite, a `both` backend each. The
 * contract test files of this folder are loaded with the suites replaced by recorders; each
 * recorded subject is opened once, and the backend it stands for is the one whose declared
 * capabilities it hands the suite (`capabilities: fsSqliteBackend.capabilities`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { BackendDefinition } from '../../kernel/backend.js';
import { builtinCatalogue } from '../../profiles/catalogue.js';
import { postgresUnavailable } from '../support/postgres.js';

type Suite = 'NoteStore' | 'SearchIndex';
type Open = () => Promise<{ capabilities: readonly unknown[]; close(): Promise<void> }>;

const recorded = vi.hoisted(
  () =>
    [] as Array<{
      suite: 'NoteStore' | 'SearchIndex';
      name: string;
      open: () => Promise<{ capabilities: readonly unknown[]; close(): Promise<void> }>;
    }>,
);

vi.mock('../../testing/index.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  describeNoteStoreContract: (name: string, open: Open) => recorded.push({ suite: 'NoteStore', name, open }),
  describeSearchIndexContract: (name: string, open: Open) => recorded.push({ suite: 'SearchIndex', name, open }),
}));

const SUITES: Record<BackendDefinition['kind'], Suite[]> = {
  storage: ['NoteStore'],
  search: ['SearchIndex'],
  both: ['NoteStore', 'SearchIndex'],
};

describe('the built-in backends and the contract suites', () => {
  /** For each suite, the capabilities arrays its subjects declared. */
  const ran = new Map<Suite, Set<readonly unknown[]>>([
    ['NoteStore', new Set()],
    ['SearchIndex', new Set()],
  ]);

  beforeAll(async () => {
    const here = path.dirname(new URL(import.meta.url).pathname);
    for (const file of fs
      .readdirSync(here)
      .filter((f) => f.endsWith('.test.ts') && f !== path.basename(import.meta.url))) {
      await import(pathToFileURL(path.join(here, file)).href);
    }
    for (const { suite, open } of recorded) {
      const subject = await open();
      ran.get(suite)!.add(subject.capabilities);
      await subject.close();
    }
  }, 120_000);

  it.each(builtinCatalogue.backends.map((b) => [b.id, b] as const))('%s runs the suites of its kind', (_, backend) => {
    // Its suites need a PostgreSQL server: without one (and not in CI) they skip, saying why.
    if (backend.id === 'postgres' && postgresUnavailable() && process.env.CI !== 'true') return;
    for (const suite of SUITES[backend.kind])
      expect(ran.get(suite)!.has(backend.capabilities), `${backend.id} (${backend.kind}) runs the ${suite} suite`).toBe(
        true,
      );
  });
});
