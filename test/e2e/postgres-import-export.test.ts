/**
 * `notekernel import` and `export` through the built CLI against a real PostgreSQL (issue 30 item 4):
 * a generated flint folder goes in and comes out byte for byte (every file, and no other), a second
 * import writes nothing, a note changed in the database exports changed, and what the store cannot
 * hold as it is (a root note, a NUL, bytes that are not UTF-8) is reported as normalised, what it
 * does not hold (a type's _description.md, a nested folder, config) as skipped.
 * NOTEKERNEL_PG_IMPORT_NOTES sets the folder's size (1,000 by default; the 10,000-note round
 * trip: NOTEKERNEL_PG_IMPORT_NOTES=10000); the times are printed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateVault } from '../support/generate-vault.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';
import {
  describePg,
  dropSchema,
  freshSchema,
  type Host,
  openHost,
  PG_URL,
  vaultName,
} from '../unit/postgres-store/helpers.js';

const NOTES = Number(process.env.NOTEKERNEL_PG_IMPORT_NOTES ?? 1_000);

/** Every file under `root`, relative, sorted. */
function filesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  walk(root);
  return found.sort();
}

interface ImportJson {
  notes: number;
  created: number;
  replaced: number;
  unchanged: number;
  seconds: number;
  notesPerSecond: number;
  normalised: { count: number; notes: Array<{ from: string; id: string; reasons: string[] }> };
  skipped: { count: number; files: Array<{ path: string; reason: string }> };
  refused: { count: number };
  differs: { count: number; ids: string[] };
}

describePg('notekernel import and export on a postgres vault', () => {
  const schema = freshSchema();
  const vault = vaultName();
  let work: string;
  let source: string;
  let config: string;
  let noteFiles: string[];

  const cli = async (...args: string[]) => {
    const run = await runCli([...args, '--json'], { env: { NOTEKERNEL_LOG_LEVEL: 'warn' } });
    if (run.code !== 0) throw new Error(`notekernel ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  };

  beforeAll(async () => {
    work = await tempDir('nk-pg-import-');
    source = path.join(work, 'flint');
    generateVault(source, NOTES);
    noteFiles = filesUnder(source);
    config = path.join(work, 'notekernel.config.json');
    fs.writeFileSync(
      config,
      JSON.stringify({ profile: 'flint', storage: { backend: 'postgres', options: { url: PG_URL, schema, vault } } }),
    );
  });
  afterAll(async () => {
    await removeDir(work);
    await dropSchema(schema);
  });

  it(`imports ${NOTES} flint notes and exports them byte for byte; a second import writes nothing`, async () => {
    const first = (await cli('import', source, '--to', config)) as unknown as ImportJson;
    expect(first).toMatchObject({ notes: NOTES, created: NOTES, unchanged: 0, replaced: 0 });
    expect(first.normalised.count + first.skipped.count + first.refused.count).toBe(0);
    const out = path.join(work, 'out');
    const exported = await cli('export', out, '--from', config);
    expect(exported).toMatchObject({ notes: NOTES, written: NOTES });
    expect(filesUnder(out)).toEqual(noteFiles);
    const differing = noteFiles.filter(
      (rel) => !fs.readFileSync(path.join(source, rel)).equals(fs.readFileSync(path.join(out, rel))),
    );
    expect(differing).toEqual([]);
    const again = (await cli('import', source, '--to', config)) as unknown as ImportJson;
    expect(again).toMatchObject({ notes: NOTES, created: 0, unchanged: NOTES, replaced: 0 });
    console.log(
      `import/export round trip, ${NOTES} notes: import ${first.seconds.toFixed(1)} s (${first.notesPerSecond}/s), ` +
        `export ${(exported.seconds as number).toFixed(1)} s (${exported.notesPerSecond}/s), ` +
        `re-import ${again.seconds.toFixed(1)} s`,
    );
  }, 600_000);

  it('a note changed in the database exports changed; a re-import reports it and --overwrite puts the file back', async () => {
    const out = path.join(work, 'out');
    let host: Host | undefined;
    const id = noteFiles[3]!;
    try {
      host = await openHost(schema, vault);
      const note = (await host.store.get(id))!;
      await host.store.update(id, { content: `${note.content}\nEdited in the database.\n` }, note.contentHash);
      const changedText = await host.store.textOf(id);
      const exported = await cli('export', out, '--from', config);
      expect(exported).toMatchObject({ notes: NOTES, written: 1, unchanged: NOTES - 1 });
      expect(fs.readFileSync(path.join(out, id), 'utf8')).toBe(changedText);
      expect(fs.readFileSync(path.join(out, id), 'utf8')).toContain('Edited in the database.');

      const left = (await cli('import', source, '--to', config)) as unknown as ImportJson;
      expect(left).toMatchObject({ unchanged: NOTES - 1, replaced: 0, differs: { count: 1, ids: [id] } });
      expect(await host.store.textOf(id)).toBe(changedText);
      const back = (await cli('import', source, '--to', config, '--overwrite')) as unknown as ImportJson;
      expect(back).toMatchObject({ unchanged: NOTES - 1, replaced: 1 });
      expect(await host.store.textOf(id)).toBe(fs.readFileSync(path.join(source, id), 'utf8'));
    } finally {
      await host?.close();
    }
  }, 300_000);

  it('reports what it normalised and what it skipped, with the reasons', async () => {
    const odd = path.join(work, 'odd');
    fs.mkdirSync(path.join(odd, 'general', 'nested'), { recursive: true });
    fs.mkdirSync(path.join(odd, '.flint-note'), { recursive: true });
    fs.writeFileSync(path.join(odd, '.flint-note', 'config.yml'), 'version: 1\n');
    fs.writeFileSync(path.join(odd, 'at-root.md'), '---\ntitle: At root\n---\n\nA root note.\n');
    fs.writeFileSync(path.join(odd, 'general', 'kept.md'), '---\ntitle: Kept\n---\r\n\r\nCRLF kept as it is.\r\n');
    fs.writeFileSync(path.join(odd, 'general', 'zero.md'), 'before\0after\n');
    fs.writeFileSync(path.join(odd, 'general', 'latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    fs.writeFileSync(path.join(odd, 'general', '_description.md'), '# General\n');
    fs.writeFileSync(path.join(odd, 'general', 'con.md'), 'a device name on Windows\n');
    fs.writeFileSync(path.join(odd, 'general', 'nested', 'deep.md'), 'deep\n');
    fs.writeFileSync(path.join(odd, 'general', 'broken.md'), '---\ntitle: [unclosed\n---\nbody\n');
    fs.writeFileSync(path.join(odd, 'general', 'photo.png'), Buffer.from([0x89, 0x50]));
    const oddVault = vaultName();
    const report = (await cli(
      'import',
      odd,
      '--url',
      PG_URL!,
      '--schema',
      schema,
      '--db-vault',
      oddVault,
    )) as unknown as ImportJson & { refused: { notes: Array<{ from: string; reason: string }> } };
    expect(report).toMatchObject({ notes: 5, created: 4 });
    const normalised = Object.fromEntries(report.normalised.notes.map((n) => [n.from, n.reasons.join('; ')]));
    expect(Object.keys(normalised).sort()).toEqual(['at-root.md', 'general/latin1.md', 'general/zero.md']);
    expect(normalised['at-root.md']).toContain('general/at-root.md');
    expect(normalised['general/zero.md']).toContain('NUL');
    expect(normalised['general/latin1.md']).toContain('UTF-8');
    expect(report.refused.notes.map((n) => n.from)).toEqual(['general/broken.md']);
    expect(report.refused.notes[0]!.reason).toContain('frontmatter');
    expect(report.skipped.files.map((f) => f.path).sort()).toEqual([
      '.flint-note',
      'general/_description.md',
      'general/con.md',
      'general/nested/',
      'general/photo.png',
    ]);
    const out = path.join(work, 'odd-out');
    await cli('export', out, '--url', PG_URL!, '--schema', schema, '--db-vault', oddVault);
    expect(filesUnder(out)).toEqual(['general/at-root.md', 'general/kept.md', 'general/latin1.md', 'general/zero.md']);
    expect(fs.readFileSync(path.join(out, 'general', 'kept.md'))).toEqual(
      fs.readFileSync(path.join(odd, 'general', 'kept.md')),
    );
    expect(fs.readFileSync(path.join(out, 'general', 'zero.md'), 'utf8')).toBe('beforeafter\n');
  }, 120_000);
});
