/**
 * `notekernel index` on a vault with `search: { backend: hybrid-search }`, through the built CLI:
 * the first run stores every passage's keywords and then waits for the vectors (its report says
 * how many were embedded); a run after editing ten notes embeds only the passages that changed;
 * a run with nothing changed embeds none. The hashed embedder stands in for the model here.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeDir));
});

const body = (i: number, tail: string) =>
  `---\ntitle: Note ${i}\n---\n\n## Part one\n\nThe first section of note ${i}.\n\n## Part two\n\n${tail}\n`;

describe('notekernel index with the hybrid-search backend', () => {
  it('embeds every passage once, then only the passages of the ten edited notes', async () => {
    const vault = await tempDir('nk-hybrid-cli-');
    dirs.push(vault);
    await fs.mkdir(path.join(vault, 'general'), { recursive: true });
    await fs.writeFile(
      path.join(vault, 'notekernel.config.json'),
      JSON.stringify({ search: { backend: 'hybrid-search', options: { embedder: 'hashed' } } }),
    );
    for (let i = 0; i < 60; i++)
      await fs.writeFile(path.join(vault, 'general', `n${i}.md`), body(i, `Second section ${i}.`));

    const first = await runCli(['index', '--vault', vault, '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ vectors: { embedded: 120 } });

    for (let i = 0; i < 10; i++)
      await fs.writeFile(path.join(vault, 'general', `n${i}.md`), body(i, `Second section ${i}, rewritten.`));
    const second = await runCli(['index', '--vault', vault, '--json']);
    expect(second.code, second.stderr).toBe(0);
    // Ten notes changed one section each: ten passages, not the notes' twenty.
    expect(JSON.parse(second.stdout)).toMatchObject({ vectors: { embedded: 10 } });

    const third = await runCli(['index', '--vault', vault, '--json']);
    expect(JSON.parse(third.stdout)).toMatchObject({ vectors: { embedded: 0 } });

    const found = await runCli([
      'call',
      'search_notes',
      JSON.stringify({ query: 'rewritten' }),
      '--vault',
      vault,
      '--json',
    ]);
    expect(found.code, found.stderr).toBe(0);
    expect((JSON.parse(found.stdout) as { results: unknown[] }).results).toHaveLength(10);
  });
});
