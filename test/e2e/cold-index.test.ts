/**
 * A cold index large enough to take the parse-worker path (≥ 1,000 changed files), through
 * the built CLI: every note indexed, a binary file skipped, nothing lost between threads; and
 * the links built in that same pass.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { generateLinkedVault } from '../support/generate-linked-vault.js';
import { generateVault } from '../support/generate-vault.js';
import { callTool, connectStdio } from '../support/mcp.js';
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
    expect(JSON.parse(run.stdout)).toMatchObject({
      scanned: 1501,
      indexed: 1500,
      skipped: [{ path: 'general/binary.md' }],
    });
    const types = await runCli(['call', 'list_note_types', '{}', '--vault', root, '--json']);
    const counts = Object.fromEntries(
      (JSON.parse(types.stdout) as Array<{ name: string; noteCount: number }>).map((t) => [t.name, t.noteCount]),
    );
    const expected: Record<string, number> = {};
    for (const note of generated.notes) expected[note.type] = (expected[note.type] ?? 0) + 1;
    expect(counts).toMatchObject(expected);
    const planted = generated.notes.find((n) => n.phrase);
    const got = await runCli([
      'call',
      'get_note',
      JSON.stringify({ identifier: planted?.id, fields: ['title'] }),
      '--vault',
      root,
      '--json',
    ]);
    expect(JSON.parse(got.stdout)).toEqual({ title: planted?.title });
  });
});

describe('one index pass builds the links and tags too (decision 026)', () => {
  it("`index` leaves every note's links in the index; a served vault answers get_backlinks from it at once", async () => {
    const root = await tempDir('nk-cold-links-');
    dirs.push(root);
    const generated = generateLinkedVault(root, 1200, { hubInbound: 150 });
    const run = await runCli(['index', '--vault', root, '--profile', 'flint', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ indexed: 1200 });

    const db = new Database(path.join(root, '.flint-note', 'notekernel.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM nk_links_state').get()).toEqual({ n: 1200 });
      const hubIn = db
        .prepare('SELECT count(*) AS n FROM note_links WHERE target_note_id = ?')
        .get(generated.hub.id) as { n: number };
      expect(hubIn.n).toBe(generated.inbound.get(generated.hub.id));
      const resolvedIn = db.prepare('SELECT count(*) AS n FROM note_links WHERE target_note_id IS NOT NULL').get() as {
        n: number;
      };
      expect(resolvedIn.n).toBe([...generated.inbound.values()].reduce((a, b) => a + b, 0));
      expect(db.prepare('SELECT count(*) AS n FROM note_links WHERE target_note_id IS NULL').get()).toEqual({
        n: generated.broken,
      });
      // Tags come from the same pass: every note's frontmatter tag, none from code blocks.
      expect(db.prepare('SELECT count(*) AS n FROM nk_tags_state').get()).toEqual({ n: 1200 });
      expect(db.prepare("SELECT count(*) AS n FROM note_tags WHERE source = 'frontmatter'").get()).toEqual({ n: 1200 });
      expect(db.prepare("SELECT count(*) AS n FROM note_tags WHERE tag = 'not-a-tag'").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }

    const session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
    try {
      const answer = await callTool(session.client, 'get_backlinks', { identifier: generated.hub.id });
      const sources = new Set(
        (answer.body as { backlinks: Array<{ source_note_id: string }> }).backlinks.map((b) => b.source_note_id),
      );
      expect(sources).toEqual(new Set(generated.hubLinks.map((l) => l.source)));
      // The start-up reconcile found every note at the hash the pass extracted it from.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(session.stderr()).toMatch(/"extracted":0[^\n]*"links index ready"|"links index ready"[^\n]*"extracted":0/);
      // list_tags answers from the pass's tags (every note already at its hash).
      const tags = await callTool(session.client, 'list_tags', {});
      expect(tags.isError).toBe(false);
      expect(JSON.stringify(tags.body)).not.toContain('not-a-tag');
    } finally {
      await session.close();
    }
  });

  it('a first build fills the tables without their secondary indexes and leaves every one built; an index lost mid-build is back at the next open', async () => {
    const root = await tempDir('nk-cold-indexes-');
    dirs.push(root);
    const generated = generateLinkedVault(root, 1100, { hubInbound: 40 });
    const file = path.join(root, '.flint-note', 'notekernel.db');
    const secondary = (): string[] => {
      const db = new Database(file, { readonly: true });
      try {
        return (
          db
            .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
            .all() as Array<{ name: string }>
        ).map((r) => r.name);
      } finally {
        db.close();
      }
    };
    expect((await runCli(['index', '--vault', root, '--profile', 'flint', '--json'])).code).toBe(0);
    const built = secondary();
    expect(built).toEqual(
      expect.arrayContaining([
        'idx_notes_updated',
        'idx_notes_file_state',
        'idx_nk_title_keys',
        'idx_note_links_target',
        'idx_nk_links_detail_key',
        'idx_note_tags_key',
      ]),
    );

    // A pass killed while they were dropped: the rows stand, the indexes are gone.
    const db = new Database(file);
    for (const name of built) db.exec(`DROP INDEX ${name}`);
    db.close();
    const broken = await runCli(['call', 'find_broken_links', '{}', '--vault', root, '--profile', 'flint', '--json']);
    expect(broken.code).toBe(0);
    expect((JSON.parse(broken.stdout) as { count: number }).count).toBe(generated.broken);
    expect(secondary()).toEqual(built);
  });
});
