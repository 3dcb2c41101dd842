/**
 * Issue 5 end to end over MCP: the built `notekernel serve --profile flint` on a generated
 * vault with planted links. Backlink counts equal the generator's ground truth for every note;
 * renaming the hub (200 inbound links) leaves zero new broken links and every alias intact; a
 * file renamed with mv while the server runs is detected, and links_repair fixes every link.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLinkedVault, type LinkedVault } from '../support/generate-linked-vault.js';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;
let vault: LinkedVault;
let session: StdioSession;

async function call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const answer = await callTool(session.client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

beforeAll(async () => {
  root = await tempDir('nk-e2e-links-');
  vault = generateLinkedVault(root, 400, { hubInbound: 200 });
  session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
});

afterAll(async () => {
  await session?.close();
  await removeDir(root);
});

describe('links over MCP on a generated vault', () => {
  it('backlink counts equal the ground truth for every note, and broken links are exactly the planted ones', async () => {
    const mismatches: string[] = [];
    for (const note of vault.notes) {
      const answer = await call<{ note_id: string; backlinks: unknown[] }>('get_backlinks', { identifier: note.id });
      const expected = vault.inbound.get(note.id) ?? 0;
      if (answer.backlinks.length !== expected) mismatches.push(`${note.id}: ${answer.backlinks.length} ≠ ${expected}`);
    }
    expect(mismatches).toEqual([]);
    expect(vault.inbound.get(vault.hub.id)).toBe(200);
    const broken = await call<{ count: number }>('find_broken_links', { limit: 1 });
    expect(broken.count).toBe(vault.broken);
  });

  it('renaming the hub (200 inbound links) rewrites them all, keeps every alias, breaks nothing', async (ctx) => {
    const { tools } = await session.client.listTools();
    if (!tools.some((t) => t.name === 'rename_note')) ctx.skip();
    const { content_hash } = await call<{ content_hash: string }>('get_note', { identifier: vault.hub.id });
    const renamed = await call<{
      total_wikilinks_updated: number;
      notes_with_updated_wikilinks: number;
      not_rewritten?: unknown[];
    }>('rename_note', {
      identifier: vault.hub.id,
      new_title: 'Central Hub',
      content_hash,
    });
    expect(renamed).toMatchObject({ total_wikilinks_updated: 200, notes_with_updated_wikilinks: 200 });
    expect(renamed.not_rewritten).toBeUndefined();
    expect((await call<{ count: number }>('find_broken_links', { limit: 1 })).count).toBe(vault.broken);
    expect(
      (await call<{ backlinks: unknown[] }>('get_backlinks', { identifier: vault.hub.id })).backlinks,
    ).toHaveLength(200);

    const lost: string[] = [];
    for (const link of vault.hubLinks) {
      const text = await fs.readFile(path.join(root, link.source), 'utf8');
      const line = text.split('\n').find((l) => l.includes('Related: ')) ?? '';
      if (
        /Hub Note|hub note/.test(line) ||
        !line.includes('Central Hub') ||
        (link.alias !== null && !line.includes(`|${link.alias}]]`))
      )
        lost.push(`${link.source}: ${line}`);
    }
    expect(lost).toEqual([]);
    // Code blocks and inline code were left alone.
    const withCode = await fs.readFile(path.join(root, vault.notes[4]?.id ?? ''), 'utf8');
    expect(withCode).toContain('```md\n[[Hub Note]] #not-a-tag\n```');
  });

  it('detects a file renamed with mv while the server runs; links_repair shows and applies every edit', async () => {
    const from = vault.mover.id;
    const to = from.replace('note-1.md', 'moved-mover.md');
    await fs.rename(path.join(root, from), path.join(root, to));
    // Let the server's file watcher (if any) report the delete + create: no link may break.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await call<{ count: number }>('find_broken_links', { limit: 1 })).count).toBe(vault.broken);

    const dry = await call<{
      dry_run: boolean;
      moves: Array<{ from_id: string; to_id: string; how: string }>;
      edits: Array<{ after: string }>;
    }>('links_repair', {});
    expect(dry.dry_run).toBe(true);
    expect(dry.moves).toEqual([expect.objectContaining({ from_id: from, to_id: to, how: 'content_hash' })]);
    expect(dry.edits).toHaveLength(vault.moverNameLinks);
    expect(dry.edits.every((e) => e.after.includes('moved-mover'))).toBe(true);

    const applied = await call<{ links_updated: number; not_rewritten: unknown[] }>('links_repair', { dry_run: false });
    expect(applied).toMatchObject({ links_updated: vault.moverNameLinks, not_rewritten: [] });
    expect((await call<{ backlinks: unknown[] }>('get_backlinks', { identifier: to })).backlinks).toHaveLength(
      vault.inbound.get(from) ?? 0,
    );
    expect((await call<{ count: number }>('find_broken_links', { limit: 1 })).count).toBe(vault.broken);
    expect(await call<{ edits: unknown[]; moves: unknown[] }>('links_repair', {})).toMatchObject({
      edits: [],
      moves: [],
    });
  });

  it('a move seen by `notekernel index` in another process is repaired by the running server', async () => {
    const target = vault.notes.find(
      (n) => (vault.inbound.get(n.id) ?? 0) > 0 && n.id !== vault.hub.id && n.id !== vault.mover.id,
    ) as { id: string; stem: string };
    const to = target.id.replace(`${target.stem}.md`, `${target.stem}-renamed.md`);
    await fs.rename(path.join(root, target.id), path.join(root, to));
    const indexed = await runCli(['index', '--profile', 'flint', '--vault', root, '--log-level', 'silent']);
    expect(indexed.code).toBe(0);
    const repair = await call<{ moves: Array<{ from_id: string; to_id: string }>; not_rewritten: unknown[] }>(
      'links_repair',
      { dry_run: false },
    );
    expect(repair.moves).toEqual([expect.objectContaining({ from_id: target.id, to_id: to })]);
    expect(repair.not_rewritten).toEqual([]);
    expect((await call<{ backlinks: unknown[] }>('get_backlinks', { identifier: to })).backlinks).toHaveLength(
      vault.inbound.get(target.id) ?? 0,
    );
    expect((await call<{ count: number }>('find_broken_links', { limit: 1 })).count).toBe(vault.broken);
  });
});
