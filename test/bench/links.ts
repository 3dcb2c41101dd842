/**
 * Issue 5 targets, on a generated 10,000-note linked vault (test/support/generate-linked-vault):
 *  - rename a note with 200 inbound links (rename_note: title + 200 rewrites) ≤ 200 ms;
 *    baseline: the same 200 notes written through the same hash-checked path with no link
 *    work (the floor), and reading + scanning every file (what a scan-based rename costs);
 *  - link extraction ≥ 20 MB/s over every note body; baseline: one regex pass for `[[`;
 *  - get_backlinks p50 ≤ 2 ms (library surface: validation, lookup, rows); baseline: get_note.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createKernel } from '../../app/index.js';
import { silentLogger } from '../../kernel/logger.js';
import type { Vault } from '../../kernel/vault.js';
import { scanMarkdown } from '../../toolkit/markdown/index.js';
import { LINK_INDEX } from '../../plugins/links/service.js';
import { CLI } from '../support/cli.js';
import { generateLinkedVault, type LinkedVault } from '../support/generate-linked-vault.js';
import { fmt, percentile, sample, time, type BenchRow } from './stats.js';

export async function benchLinks(workDir: string, count = 10_000): Promise<BenchRow[]> {
  const root = path.join(workDir, `linked-vault-${count}`);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const generated = generateLinkedVault(root, count, { hubInbound: 200 });
  const kernel = await createKernel({ profile: 'flint', config: {}, logger: silentLogger() });
  const rows: BenchRow[] = [];
  try {
    // The start-up reconcile runs behind the open; time until the link index answers.
    const opened = await time(async () => {
      const v = await kernel.openVault(root);
      await v.resolve(LINK_INDEX).broken();
      return v;
    });
    const vault = opened.value;
    rows.push(await extraction(vault, generated));
    rows.push(await backlinks(vault, generated));
    rows.push(await rename(vault, generated, root));
    rows.push(await warmStart(root));
    rows.push({
      bench: `cold open until the link index is ready, ${count} notes`,
      value: fmt(opened.ms),
      target: '(info)',
      baseline: '—',
      ratio: '—',
      pass: true,
    });
  } finally {
    await kernel.close();
  }
  rows.push(await renameOverMcp(root, generated));
  return rows;
}

async function extraction(vault: Vault, generated: LinkedVault): Promise<BenchRow> {
  const bodies = await Promise.all(generated.notes.map(async (n) => (await vault.notes.get(n.id))?.content ?? ''));
  const megabytes = bodies.reduce((sum, b) => sum + Buffer.byteLength(b), 0) / 1e6;
  const pass = (fn: (text: string) => unknown) => () => bodies.forEach(fn);
  const warm = pass((b) => scanMarkdown(b, { tags: false }));
  warm();
  warm();
  const scans = await sample(5, warm);
  const floor = await sample(
    5,
    pass((b) => b.match(/\[\[/g)),
  );
  const ms = percentile(scans, 50);
  const rate = megabytes / (ms / 1000);
  return {
    bench: `link extraction, ${(megabytes).toFixed(1)} MB of note bodies`,
    value: `${rate.toFixed(1)} MB/s (${fmt(ms)})`,
    target: '≥ 20 MB/s',
    baseline: `one /\\[\\[/ pass ${fmt(percentile(floor, 50))}`,
    ratio: `${(ms / percentile(floor, 50)).toFixed(1)}× baseline`,
    pass: rate >= 20,
  };
}

async function backlinks(vault: Vault, generated: LinkedVault): Promise<BenchRow> {
  const ids = generated.notes.filter((_, i) => i % 10 === 3).map((n) => n.id);
  await vault.call('get_backlinks', { identifier: ids[0] });
  const links = await sample(ids.length, (i) => vault.call('get_backlinks', { identifier: ids[i] }));
  const reads = await sample(ids.length, (i) => vault.call('get_note', { identifier: ids[i] }));
  const p50 = percentile(links, 50);
  return {
    bench: `get_backlinks, ${ids.length} notes`,
    value: `p50 ${fmt(p50)}, p95 ${fmt(percentile(links, 95))}`,
    target: 'p50 ≤ 2 ms',
    baseline: `get_note p50 ${fmt(percentile(reads, 50))}`,
    ratio: `${(p50 / percentile(reads, 50)).toFixed(2)}× get_note`,
    pass: p50 <= 2,
  };
}

async function rename(vault: Vault, generated: LinkedVault, root: string): Promise<BenchRow> {
  const sources = generated.hubLinks.map((l) => l.source);
  // Floor: the same 200 notes through the same write path, content unchanged but for one byte.
  const floor = await time(async () => {
    for (const id of sources) {
      const note = await vault.notes.require(id);
      await vault.notes.update(id, { content: `${note.content} ` }, note.contentHash);
    }
  });
  const scanAll = await time(() => {
    for (const n of generated.notes) scanMarkdown(fs.readFileSync(path.join(root, n.id), 'utf8'), { tags: false });
  });
  const { content_hash } = (await vault.call('get_note', { identifier: generated.hub.id })) as { content_hash: string };
  const renamed = await time(() =>
    vault.call('rename_note', { identifier: generated.hub.id, new_title: 'Central Hub', content_hash }),
  );
  const report = renamed.value as { total_wikilinks_updated: number };
  const ok = report.total_wikilinks_updated === 200;
  return {
    bench: 'rename_note, 200 inbound links',
    value: `${fmt(renamed.ms)}${ok ? '' : ` (only ${report.total_wikilinks_updated} rewritten)`}`,
    target: '≤ 200 ms',
    baseline: `200 plain updates ${fmt(floor.ms)}; scan every file ${fmt(scanAll.ms)}`,
    ratio: `${(renamed.ms / floor.ms).toFixed(2)}× plain updates`,
    pass: ok && renamed.ms <= 200,
  };
}

/**
 * The same rename as a client sees it: a spawned `serve` over MCP stdio (the CLI sizes libuv's
 * thread pool, decision 014), five renames a second apart, as an agent paces its calls.
 */
async function renameOverMcp(root: string, generated: LinkedVault): Promise<BenchRow> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--vault', root, '--log-level', 'warn'],
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as {
      content: Array<{ text: string }>;
      isError?: boolean;
    };
    if (result.isError) throw new Error(`${name}: ${result.content[0]?.text}`);
    return JSON.parse(result.content[0]?.text ?? 'null') as Record<string, unknown>;
  };
  try {
    await call('get_backlinks', { identifier: generated.hub.id });
    const times: number[] = [];
    let rewritten = true;
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const { content_hash } = await call('get_note', { identifier: generated.hub.id });
      const renamed = await time(() =>
        call('rename_note', { identifier: generated.hub.id, new_title: `Hub, take ${i + 1}`, content_hash }),
      );
      rewritten &&= renamed.value.total_wikilinks_updated === 200;
      times.push(renamed.ms);
    }
    const p50 = percentile(times, 50);
    return {
      bench: 'rename_note, 200 inbound links (spawned serve, MCP stdio, 5 renames 1 s apart)',
      value: `p50 ${fmt(p50)}, max ${fmt(Math.max(...times))}${rewritten ? '' : ' (links missed)'}`,
      target: '≤ 200 ms',
      baseline: 'in-process rename above',
      ratio: '—',
      pass: rewritten && p50 <= 200,
    };
  } finally {
    await client.close();
  }
}

/** What the start-up reconcile adds to a warm start (unchanged vault): one list() and a fingerprint. */
async function warmStart(root: string): Promise<BenchRow> {
  const open = (plugins: Record<string, boolean>, ready: (v: Vault) => Promise<unknown>) => async () => {
    const kernel = await createKernel({ profile: 'flint', config: { plugins }, logger: silentLogger() });
    try {
      await ready(await kernel.openVault(root));
    } finally {
      await kernel.close();
    }
  };
  const withLinks = await sample(
    5,
    open({}, (v) => v.resolve(LINK_INDEX).broken()),
  );
  const without = await sample(
    5,
    open({ links: false, tags: false }, (v) => v.call('get_note', { identifier: 'general/note-0.md' })),
  );
  const p50 = percentile(withLinks, 50);
  return {
    bench: 'warm start → link index ready (unchanged vault)',
    value: `p50 ${fmt(p50)}`,
    target: '(info)',
    baseline: `warm start without links/tags p50 ${fmt(percentile(without, 50))}`,
    ratio: `+${fmt(p50 - percentile(without, 50))}`,
    pass: true,
  };
}
