/**
 * Renames and moves made outside the server: detected by content hash on reconcile (start-up,
 * refresh, vault-wide tools), reported, and repaired by links_repair (tool, CLI command, or
 * automatically with `autoRepair`). Restarts after offline edits re-read only what changed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { noProgress } from '../../../kernel/progress.js';
import { createKernel } from '../../../app/index.js';
import { silentLogger } from '../../../kernel/logger.js';
import { LinkIndexer } from '../../../plugins/links/indexer.js';
import { NameIndex } from '../../../plugins/links/names.js';
import { linksIndexPass } from '../../../plugins/links/index-pass.js';
import { PASS_UNRESOLVED, reconcile } from '../../../plugins/links/reconcile.js';
import type { LinksRuntime } from '../../../plugins/links/runtime.js';
import { createMemoryLinkStore } from '../../../plugins/links/store/memory.js';
import { contentOf, create, linkIndex, useFlint, writeNoteFile } from './helpers.js';

const flint = useFlint();

async function seed(vault: Parameters<typeof create>[0]) {
  const target = await create(vault, 'Target Note', 'body');
  const byTitle = await create(vault, 'By Title', 'see [[Target Note|t]]');
  const byStem = await create(vault, 'By Stem', 'see [[target-note]] and [[target-note#Part|p]]');
  const byPath = await create(vault, 'By Path', 'see [[general/target-note]] and [md](target-note.md)');
  return { target, byTitle, byStem, byPath };
}

describe('moves outside the server', () => {
  it('detects an mv while open, shows exact edits in a dry run, and repairs every inbound link', async () => {
    const { vault, root } = await flint();
    const ids = await seed(vault);
    await fs.rename(path.join(root, 'general/target-note.md'), path.join(root, 'general/moved-note.md'));

    const dry = (await vault.call('links_repair', {})) as {
      moves: Array<{ from_id: string; to_id: string; how: string }>;
      edits: Array<{ note_id: string; before: string; after: string }>;
      links_updated: number;
    };
    expect(dry.moves).toEqual([
      expect.objectContaining({ from_id: ids.target, to_id: 'general/moved-note.md', how: 'content_hash' }),
    ]);
    expect(dry.edits.map((e) => [e.note_id, e.before, e.after])).toEqual([
      [ids.byPath, '[[general/target-note]]', '[[general/moved-note]]'],
      [ids.byPath, '[md](target-note.md)', '[md](moved-note.md)'],
      [ids.byStem, '[[target-note]]', '[[moved-note]]'],
      [ids.byStem, '[[target-note#Part|p]]', '[[moved-note#Part|p]]'],
    ]);
    // Until repaired, the old names still resolve to the moved note.
    expect(((await vault.call('find_broken_links', {})) as { count: number }).count).toBe(0);

    const applied = (await vault.call('links_repair', { dry_run: false })) as {
      links_updated: number;
      notes_updated: number;
      moves: Array<{ repaired_at: string | null }>;
    };
    expect(applied).toMatchObject({ links_updated: 4, notes_updated: 2 });
    expect(await contentOf(vault, ids.byStem)).toBe('see [[moved-note]] and [[moved-note#Part|p]]');
    expect(await contentOf(vault, ids.byPath)).toBe('see [[general/moved-note]] and [md](moved-note.md)');
    expect(await contentOf(vault, ids.byTitle)).toBe('see [[Target Note|t]]');
    const back = (await vault.call('get_backlinks', { identifier: 'general/moved-note.md' })) as {
      backlinks: unknown[];
    };
    expect(back.backlinks).toHaveLength(5);
    expect((await vault.call('links_repair', {})) as { moves: unknown[]; edits: unknown[] }).toMatchObject({
      moves: [],
      edits: [],
    });
  });

  it('a repair is one journalled operation: listed, and undone byte for byte', async () => {
    const { vault, root } = await flint();
    const ids = await seed(vault);
    const before = { byStem: await contentOf(vault, ids.byStem), byPath: await contentOf(vault, ids.byPath) };
    await fs.rename(path.join(root, 'general/target-note.md'), path.join(root, 'general/moved-note.md'));
    const applied = (await vault.call('links_repair', { dry_run: false })) as {
      notes_updated: number;
      operation_id?: string;
    };
    expect(applied.notes_updated).toBe(2);
    expect(applied.operation_id).toEqual(expect.any(String));
    const listed = (await vault.call('list_operations', {})) as {
      operations: Array<{ id: string; operation: string; notes: string[] }>;
    };
    expect(listed.operations[0]).toMatchObject({ id: applied.operation_id, operation: 'links_repair' });
    expect([...(listed.operations[0]?.notes ?? [])].sort()).toEqual([ids.byPath, ids.byStem].sort());
    const undone = (await vault.call('undo_operation', { operation_id: applied.operation_id })) as {
      restored: string[];
    };
    expect([...undone.restored].sort()).toEqual([ids.byPath, ids.byStem].sort());
    expect(await contentOf(vault, ids.byStem)).toBe(before.byStem);
    expect(await contentOf(vault, ids.byPath)).toBe(before.byPath);
  });

  it('a watcher reporting an mv as delete then create is taken for a move: nothing stays broken', async () => {
    const { vault, root } = await flint();
    const ids = await seed(vault);
    const previous = (await vault.notes.list()).find((s) => s.id === ids.target);
    await fs.rename(path.join(root, ids.target), path.join(root, 'general/watched.md'));
    // What the backend's watcher hands the kernel, in the order it usually arrives.
    await vault.notes.applyExternal({ kind: 'deleted', id: ids.target, ...(previous ? { previous } : {}) });
    expect(((await vault.call('find_broken_links', {})) as { count: number }).count).toBeGreaterThan(0);
    const moved = await vault.notes.store.get('general/watched.md');
    if (!moved) throw new Error('the moved file should be readable');
    await vault.notes.applyExternal({ kind: 'written', note: moved });
    expect(((await vault.call('find_broken_links', {})) as { count: number }).count).toBe(0);
    expect(await linkIndex(vault).incoming('general/watched.md')).toHaveLength(5);
    const dry = (await vault.call('links_repair', { refresh: false })) as {
      moves: Array<{ from_id: string; to_id: string }>;
      edits: unknown[];
    };
    expect(dry.moves).toEqual([expect.objectContaining({ from_id: ids.target, to_id: 'general/watched.md' })]);
    expect(dry.edits).toHaveLength(4);
  });

  it('move_note (a type change) keeps every link resolving; links_repair updates path links', async () => {
    const { vault } = await flint();
    const ids = await seed(vault);
    const hash = ((await vault.call('get_note', { identifier: ids.target })) as { content_hash: string }).content_hash;
    await vault.call('move_note', { identifier: ids.target, new_type: 'misc', content_hash: hash }).catch(async () => {
      await vault.call('create_note_type', { type_name: 'misc', description: 'misc' });
      return vault.call('move_note', { identifier: ids.target, new_type: 'misc', content_hash: hash });
    });
    expect(((await vault.call('find_broken_links', {})) as { count: number }).count).toBe(0);
    expect(await linkIndex(vault).incoming('misc/target-note.md')).toHaveLength(5);
    await vault.call('links_repair', { dry_run: false });
    expect(await contentOf(vault, ids.byPath)).toBe('see [[misc/target-note]] and [md](../misc/target-note.md)');
  });

  it('a restart after offline edits re-reads only the changed notes and sees the move', async () => {
    const first = await flint();
    const ids = await seed(first.vault);
    const root = first.root;
    await first.kernel.close();
    await writeNoteFile(root, 'general/by-title.md', 'By Title', 'now [[Brand New]] and [[Target Note]]');
    await fs.rm(path.join(root, 'general/by-path.md'));
    await fs.rename(path.join(root, 'general/target-note.md'), path.join(root, 'general/renamed.md'));
    await writeNoteFile(root, 'general/brand-new.md', 'Brand New', 'hello');

    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) });
    const kernel = await createKernel({ profile: 'flint', config: {}, logger: pino({ level: 'info' }, sink) });
    try {
      const vault = await kernel.openVault(root);
      await (linkIndex(vault) as LinksRuntime).settle(); // the start-up reconcile (link queries answer before it)
      const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      // The backend's index pass hands the changed files over as it reads them (decision 026);
      // the start-up reconcile then finds every note at its hash and reads nothing.
      expect(logged.find((l) => l.msg === 'links extracted in the index pass')).toMatchObject({
        extracted: 2,
        removed: 1,
        moved: 1,
      });
      expect(logged.find((l) => l.msg === 'links index ready')).toMatchObject({
        storage: 'index-db',
        extracted: 0,
        removed: 0,
        moved: 0,
      });
      expect(lines.some((l) => l.includes('note moved outside the server'))).toBe(true);
      expect(((await vault.call('find_broken_links', {})) as { count: number }).count).toBe(0);
      expect((await linkIndex(vault).outgoing(ids.byTitle)).map((l) => l.target_note_id)).toEqual([
        'general/brand-new.md',
        'general/renamed.md',
      ]);
      expect(await linkIndex(vault).reconcile()).toMatchObject({ extracted: 0, removed: 0, moved: [] });
    } finally {
      await kernel.close();
    }
  });

  it('autoRepair rewrites inbound links without being asked', async () => {
    const { vault, root, kernel } = await flint({ config: { plugins: { links: { autoRepair: true } } } });
    const ids = await seed(vault);
    await fs.rename(path.join(root, 'general/target-note.md'), path.join(root, 'general/auto.md'));
    await vault.notes.store.refresh!();
    await linkIndex(vault).reconcile();
    await kernel.close(); // waits for the scheduled repair
    expect(await fs.readFile(path.join(root, ids.byStem), 'utf8')).toContain('see [[auto]] and [[auto#Part|p]]');
  });

  it('the links-repair CLI command prints the edits in a dry run and applies them otherwise', async () => {
    const { vault, root } = await flint();
    const ids = await seed(vault);
    await fs.rename(path.join(root, 'general/target-note.md'), path.join(root, 'general/cli-moved.md'));
    const command = vault.cliCommands().find((c) => c.name === 'links-repair');
    expect(command).toBeDefined();
    let out = '';
    const io = { out: (t: string) => void (out += t), err: (t: string) => void (out += t), progress: noProgress };
    expect(await command?.run({ args: [], options: { dryRun: true } }, io)).toBe(0);
    expect(out).toContain(`moved: ${ids.target} → general/cli-moved.md`);
    expect(out).toContain(`${ids.byStem}:1: [[target-note]] → [[cli-moved]]`);
    expect(out).toContain('would rewrite 4 link(s) in 2 note(s); run without --dry-run to apply');
    expect(await contentOf(vault, ids.byStem)).toContain('[[target-note]]');
    out = '';
    expect(await command?.run({ args: [], options: { json: true } }, io)).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ dry_run: false, links_updated: 4 });
    expect(await contentOf(vault, ids.byStem)).toContain('[[cli-moved]]');
  });
});

describe('reconcile', () => {
  it('stops between batches when asked and resumes where it stopped', async () => {
    const { vault, root } = await flint();
    for (let i = 0; i < 150; i++)
      await writeNoteFile(root, `general/bulk-${i}.md`, `Bulk ${i}`, `[[Bulk ${(i + 1) % 150}]]`);
    await vault.notes.store.refresh!();
    const indexer = new LinkIndexer(createMemoryLinkStore(), new NameIndex());
    let asked = 0;
    const first = await reconcile(indexer, vault.notes.store, silentLogger(), () => asked++ > 0);
    expect(first).toMatchObject({ complete: false, extracted: 64 });
    const second = await reconcile(indexer, vault.notes.store, silentLogger());
    expect(second.complete).toBe(true);
    expect(first.extracted + second.extracted).toBe(first.scanned);
    expect(indexer.links.broken()).toEqual([]);
    expect(await reconcile(indexer, vault.notes.store, silentLogger())).toMatchObject({ extracted: 0, complete: true });
  });

  it('resolves links stored before their target was read (an index pass killed half-way)', async () => {
    const { vault, root } = await flint();
    await writeNoteFile(root, 'general/first.md', 'First', 'see [[Second]]');
    await writeNoteFile(root, 'general/second.md', 'Second', 'body');
    await vault.notes.store.refresh!();
    const indexer = new LinkIndexer(createMemoryLinkStore(), new NameIndex());
    const first = await vault.notes.store.get('general/first.md');
    if (!first) throw new Error('first.md is not a note');
    indexer.links.transaction(() => indexer.apply(first));
    expect(indexer.links.broken().map((l) => l.target_key)).toEqual(['second']);
    const report = await reconcile(indexer, vault.notes.store, silentLogger());
    expect(report.complete).toBe(true);
    expect(indexer.links.broken()).toEqual([]);
    expect(indexer.links.incoming('general/second.md').map((l) => l.source_note_id)).toEqual(['general/first.md']);
  });

  it('re-resolves the links of an index pass killed before its closing re-resolution, though no note changed', async () => {
    const { vault, root } = await flint();
    await writeNoteFile(root, 'general/first.md', 'First', 'see [[Second]]');
    await writeNoteFile(root, 'general/second.md', 'Second', 'body');
    await vault.notes.store.refresh!();
    const ids = (await vault.notes.store.list()).map((s) => s.id).sort();
    const notes = await Promise.all(
      ['general/first.md', ...ids.filter((id) => id !== 'general/first.md')].map((id) => vault.notes.store.get(id)),
    );
    const indexer = new LinkIndexer(createMemoryLinkStore(), new NameIndex());
    const pass = linksIndexPass(indexer, silentLogger(), () => undefined);
    // Two batches committed, the process killed before end(): first's link was stored unresolved.
    await pass.batch(
      notes.slice(0, 1).filter((n) => n !== undefined),
      [],
    );
    await pass.batch(
      notes.slice(1).filter((n) => n !== undefined),
      [],
    );
    expect(indexer.links.broken().map((l) => l.target_key)).toEqual(['second']);
    const report = await reconcile(indexer, vault.notes.store, silentLogger());
    expect(report).toMatchObject({ extracted: 0, complete: true });
    expect(indexer.links.broken()).toEqual([]);
    expect(indexer.links.meta(PASS_UNRESOLVED)).toBeUndefined();
  });

  it('a note the link tables hold at its hash but the names had lost still names its keys for re-resolution', async () => {
    const { vault, root } = await flint();
    await writeNoteFile(root, 'general/second.md', 'Second', 'body');
    await vault.notes.store.refresh!();
    const second = await vault.notes.store.get('general/second.md');
    if (!second) throw new Error('second.md is not a note');
    const links = createMemoryLinkStore();
    links.transaction(() => new LinkIndexer(links, new NameIndex()).apply(second));
    const again = new LinkIndexer(links, new NameIndex()).apply(second);
    expect(again.changed).toBe(false);
    expect([...again.keys]).toContain('second');
  });
});
