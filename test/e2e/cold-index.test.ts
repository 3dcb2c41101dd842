/**
 * A cold index large enough to take the parse-worker path (≥ 1,000 changed files), through
 * the built CLI: every note indexed, a binary file skipped, nothing lost between threads.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateVault } from '../support/generate-vault.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeDir));
});

describe('cold index through the parse worker', () => {
  it('indexes 1,500 notes and skips the binary one', async () => {
    const root = await tempDir('nk-cold-');
    dirs.push(root);
    const generated = generateVault(root, 1500, { seed: 7 });
    await fs.writeFile(path.join(root, 'general', 'binary.md'), Buffer.from([0, 1, 2, 255]));
    const run = await runCli(['index', '--vault', root, '--profile', 'flint', '--json']);
    expect(run.code).toBe(0);
    // The explicit run is the opening refresh itself (decision 013): it reports the cold index.
    expect(JSON.parse(run.stdout)).toMatchObject({ scanned: 1501, indexed: 1500, skipped: [{ path: 'general/binary.md' }] });
    const types = await runCli(['call', 'list_note_types', '{}', '--vault', root, '--json']);
    const counts = Object.fromEntries((JSON.parse(types.stdout) as Array<{ name: string; noteCount: number }>).map((t) => [t.name, t.noteCount]));
    const expected: Record<string, number> = {};
    for (const note of generated.notes) expected[note.type] = (expected[note.type] ?? 0) + 1;
    expect(counts).toMatchObject(expected);
    const planted = generated.notes.find((n) => n.phrase);
    const got = await runCli(['call', 'get_note', JSON.stringify({ identifier: planted?.id, fields: ['title'] }), '--vault', root, '--json']);
    expect(JSON.parse(got.stdout)).toEqual({ title: planted?.title });
  });
});
