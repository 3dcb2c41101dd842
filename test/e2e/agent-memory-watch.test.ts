/**
 * markdown-git follows entries other programs write while it serves (capability `watch`): an
 * entry written by this test process (another process than the server) is answered by
 * memory_links and memory_search (how soon is logged), a memory_rename then rewrites its link text, and a
 * checkout-like burst (files renamed over, deleted, added in a new folder) is seen whole.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;
let session: StdioSession;

async function call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const answer = await callTool(session.client, name, args);
  if (answer.isError) throw new Error(`${name}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

/** A deadline that only catches a watch that never reports: how soon it does is logged, not asserted. */
const SEEN_WITHIN_MS = 15_000;

/** Polls until `check` holds; returns how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < ms) {
    if (await check()) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not seen within ${ms} ms`);
}

beforeAll(async () => {
  root = await tempDir('nk-memory-watch-');
  fs.writeFileSync(path.join(root, 'target id__Targ11.md'), '# Target\n\nthe entry others link to\n');
  session = await connectStdio(['serve', '--profile', 'agent-memory', '--vault', root]);
  await call('memory_list');
});

afterAll(async () => {
  await session?.close();
  await removeDir(root);
});

describe('markdown-git sees entries other programs write', () => {
  it('an entry written outside is linked and searchable, and a rename rewrites its link', async () => {
    // An editor's way: a temp file renamed over the name.
    const temp = path.join(root, '.outside-tmp');
    fs.writeFileSync(temp, '# Written outside\n\nabout zebracorn migrations, see [[id__Targ11|Target]]\n');
    fs.renameSync(temp, path.join(root, 'written-outside id__Outs11.md'));
    const ms = await within(SEEN_WITHIN_MS, async () => {
      const links = await call<{ inbound: Array<{ id: string }> }>('memory_links', { id: 'id__Targ11' });
      const found = await call<unknown>('memory_search', { query: 'zebracorn' });
      return links.inbound.some((l) => l.id === 'id__Outs11') && JSON.stringify(found).includes('id__Outs11');
    });
    console.info(`an entry written outside: linked and searchable after ${Math.round(ms)} ms`);

    const renamed = await call<{ updatedInboundLinks: number }>('memory_rename', {
      id: 'id__Targ11',
      new_title: 'Renamed target',
    });
    expect(renamed.updatedInboundLinks).toBe(1);
    expect(fs.readFileSync(path.join(root, 'written-outside id__Outs11.md'), 'utf8')).toContain(
      '[[id__Targ11|Renamed target]]',
    );
  });

  it('a checkout-like burst: renamed over, deleted, added in a new folder — all seen', async () => {
    for (let i = 0; i < 24; i++)
      fs.writeFileSync(
        path.join(root, `burst-${i} id__Brst${String.fromCharCode(65 + i)}1.md`),
        `# Burst ${i}\n\nfirst version\n`,
      );
    await within(SEEN_WITHIN_MS, async () =>
      (await call<{ orphans?: string[] } | string[]>('memory_orphans')).toString().includes('id__BrstA1'),
    );
    fs.mkdirSync(path.join(root, 'orgs', 'acme'), { recursive: true });
    for (let i = 0; i < 24; i++) {
      const file = path.join(root, `burst-${i} id__Brst${String.fromCharCode(65 + i)}1.md`);
      if (i % 3 === 0) fs.rmSync(file);
      else {
        fs.writeFileSync(`${file}.tmp`, `# Burst ${i}\n\nsecond version links [[id__Targ11|Renamed target]]\n`);
        fs.renameSync(`${file}.tmp`, file);
      }
      fs.writeFileSync(
        path.join(root, 'orgs', 'acme', `new-${i} id__Acme${String.fromCharCode(65 + i)}1.md`),
        `# New ${i}\n\nadded by checkout\n`,
      );
    }
    let seen = { linked: 0, deletedGone: false, added: 0 };
    await within(SEEN_WITHIN_MS, async () => {
      const links = await call<{ inbound: Array<{ id: string }> }>('memory_links', { id: 'id__Targ11' });
      const list = JSON.stringify(await call<unknown>('memory_list', { status: 'all' }));
      seen = {
        linked: links.inbound.filter((l) => l.id.startsWith('id__Brst')).length,
        deletedGone: Array.from({ length: 8 }, (_, k) => 3 * k).every(
          (i) => !list.includes(`id__Brst${String.fromCharCode(65 + i)}1`),
        ),
        added: Array.from({ length: 24 }, (_, i) => `id__Acme${String.fromCharCode(65 + i)}1`).filter((id) =>
          list.includes(id),
        ).length,
      };
      return seen.linked === 16 && seen.deletedGone && seen.added === 24;
    }).catch((err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(seen)}`);
    });
  });
});
