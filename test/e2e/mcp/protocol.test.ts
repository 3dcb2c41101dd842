/**
 * The MCP protocol surface end to end over stdio (the SDK's Client spawning the built server on
 * a temp vault): JSON-RPC error codes, the logging capability, progress notifications, and a
 * call in flight at SIGTERM answered, its notes indexed, before the process exits.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LoggingMessageNotification,
  type Progress,
  ProtocolError,
  ResourceNotFoundError,
} from '@modelcontextprotocol/client';
import { connectStdio, type StdioSession } from '../../support/mcp.js';
import { removeDir, tempDir } from '../../support/temp.js';

let root: string;
let session: StdioSession;

beforeAll(async () => {
  root = await tempDir('nk-e2e-protocol-');
  session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
});

afterAll(async () => {
  await session?.close();
  await removeDir(root);
});

function batch(prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) => ({ title: `${prefix} ${i}`, content: `body ${i}` }));
}

/** The error a request was refused with; the v2 client raises a JSON-RPC error answer as a ProtocolError. */
async function protocolError(promise: Promise<unknown>): Promise<ProtocolError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ProtocolError.isInstance(err)) throw new Error(`expected a protocol error, got ${String(err)}`);
  return err;
}

describe('JSON-RPC error codes', () => {
  // The v2 client reads -32602 with data.uri (or the -32002 that servers on SDK 1.x sent) as
  // resource-not-found, and reports it as -32602, the code the 2026-07-28 revision requires.
  it('answers an unknown resource as resource not found, with its uri', async () => {
    const err = await protocolError(session.client.readResource({ uri: 'flint-note://nope' }));
    expect(ResourceNotFoundError.isInstance(err)).toBe(true);
    expect(err).toMatchObject({
      code: -32602,
      data: { uri: 'flint-note://nope' },
      message: expect.stringMatching(/Unknown resource "flint-note:\/\/nope"/),
    });
  });

  it('answers an unknown prompt with -32602', async () => {
    const err = await protocolError(session.client.getPrompt({ name: 'no_such_prompt' }));
    expect(err).toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown prompt "no_such_prompt"/) });
  });

  it('answers an unknown tool with -32602, not a tool result', async () => {
    const err = await protocolError(session.client.callTool({ name: 'no_such_tool', arguments: {} }));
    expect(err).toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown tool "no_such_tool"/) });
    // The v2 client keeps the server's message as it is (v1 put "MCP error -32602: " before it).
    expect(err.message).toBe('Unknown tool "no_such_tool"; tools/list names the tools this server has.');
  });

  it('answers tools/call without a name with -32602 and a sentence, not a zod dump', async () => {
    const err = await protocolError(
      session.client.request({ method: 'tools/call', params: { arguments: {} } } as never),
    );
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/Invalid tools\/call request: name: a tool name \(string\) is required/);
    expect(err.message).not.toMatch(/"code":|invalid_type/);
  });

  it('keeps bad arguments of a known tool a tool result with the field named', async () => {
    const result = await session.client.callTool({ name: 'get_note', arguments: {} });
    expect(result.isError).toBe(true);
  });
});

describe('logging capability', () => {
  it('sends warnings as notifications/message at the level the client chose', async () => {
    const messages: LoggingMessageNotification['params'][] = [];
    session.client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params));
    await fs.mkdir(path.join(root, 'general'), { recursive: true });

    await session.client.setLoggingLevel('error');
    await fs.writeFile(path.join(root, 'general', 'binary-one.md'), Buffer.from([0x89, 0x50, 0x00, 0xff, 0xfe]));
    await session.client.callTool({ name: 'search_notes', arguments: { query: 'anything' } });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(messages.filter((m) => m.level === 'warning')).toEqual([]);

    await session.client.setLoggingLevel('warning');
    await fs.writeFile(path.join(root, 'general', 'binary-two.md'), Buffer.from([0x89, 0x50, 0x00, 0xff, 0xfe]));
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && !messages.some((m) => m.level === 'warning')) {
      await session.client.callTool({ name: 'search_notes', arguments: { query: 'anything' } });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const warning = messages.find((m) => m.level === 'warning');
    expect(warning).toMatchObject({ level: 'warning', logger: 'notekernel', data: { msg: expect.any(String) } });
    expect(JSON.stringify(warning?.data)).toMatch(/binary-two\.md/);
    expect(messages.every((m) => m.level !== 'info' && m.level !== 'debug')).toBe(true);
  });
});

describe('progress', () => {
  it('sends notifications/progress during 2,000 notes created in two batches', async () => {
    for (const part of ['first', 'second']) {
      const seen: Progress[] = [];
      const result = await session.client.callTool(
        { name: 'create_note', arguments: { notes: batch(`Progress ${part}`, 1000) } },
        { onprogress: (p) => void seen.push(p), timeout: 120_000 },
      );
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ total: 1000, successful: 1000 });
      expect(seen.length).toBeGreaterThan(1);
      expect(seen.at(-1)).toMatchObject({ progress: 1000, total: 1000 });
      for (let i = 1; i < seen.length; i++)
        expect((seen[i] as Progress).progress).toBeGreaterThan((seen[i - 1] as Progress).progress);
    }
  }, 180_000);

  it('sends notifications/progress while rename_tag rewrites many notes', async () => {
    const tagged = Array.from({ length: 300 }, (_, i) => ({ title: `Tagged ${i}`, content: `about #oldtag ${i}` }));
    await session.client.callTool({ name: 'create_note', arguments: { notes: tagged } }, { timeout: 60_000 });
    const seen: Progress[] = [];
    const result = await session.client.callTool(
      { name: 'rename_tag', arguments: { from: 'oldtag', to: 'newtag', dry_run: false } },
      {
        onprogress: (p) => void seen.push(p),
        timeout: 60_000,
      },
    );
    expect(result.structuredContent).toMatchObject({ notes_updated: 300 });
    expect(seen.at(-1)).toMatchObject({ progress: 300, total: 300 });
  }, 120_000);

  it('sends notifications/progress while rename_note rewrites the links of many notes', async () => {
    const linking = Array.from({ length: 300 }, (_, i) => ({
      title: `Linking ${i}`,
      content: `see [[Rename Target]] (${i})`,
    }));
    const created = await session.client.callTool({
      name: 'create_note',
      arguments: { title: 'Rename Target', content: 'the target' },
    });
    await session.client.callTool({ name: 'create_note', arguments: { notes: linking } }, { timeout: 60_000 });
    const { id } = created.structuredContent as { id: string };
    const target = (await session.client.callTool({ name: 'get_note', arguments: { identifier: id } }))
      .structuredContent as { id: string; content_hash: string };
    const seen: Progress[] = [];
    const result = await session.client.callTool(
      {
        name: 'rename_note',
        arguments: { identifier: target.id, new_title: 'Renamed Target', content_hash: target.content_hash },
      },
      { onprogress: (p) => void seen.push(p), timeout: 60_000 },
    );
    expect(result.structuredContent).toMatchObject({ notes_with_updated_wikilinks: 300, total_wikilinks_updated: 300 });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    // One step per note of the journalled plan (decision 025): the renamed note and the 300 linking it.
    expect(seen.at(-1)).toMatchObject({ progress: 301, total: 301 });
    expect(seen.map((p) => p.message).join('\n')).toMatch(/rewriting links \d+\/301/);
    for (let i = 1; i < seen.length; i++)
      expect((seen[i] as Progress).progress).toBeGreaterThan((seen[i - 1] as Progress).progress);
  }, 120_000);

  it('sends none when the client asks for none', async () => {
    const vault = await tempDir('nk-e2e-quiet-');
    const own = await connectStdio(['serve', '--profile', 'flint', '--vault', vault]);
    try {
      // Every notifications/progress this session gets is counted, whatever its token (this handler
      // takes the place of the SDK's own, so no onprogress callback runs on this session).
      let count = 0;
      own.client.setNotificationHandler('notifications/progress', () => void count++);
      await own.client.callTool({ name: 'create_note', arguments: { notes: batch('Quiet', 50) } });
      await new Promise((resolve) => setImmediate(resolve));
      expect(count).toBe(0);
      // The same call asking for progress is counted: the count above can see notifications.
      await own.client.callTool(
        { name: 'create_note', arguments: { notes: batch('Loud', 50) } },
        { onprogress: () => {} },
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(count).toBeGreaterThan(0);
    } finally {
      await own.close();
      await removeDir(vault);
    }
  });
});

describe('shutdown', () => {
  it('answers a call in flight at SIGTERM and indexes its notes before exiting', async () => {
    const vault = await tempDir('nk-e2e-drain-');
    const own = await connectStdio(['serve', '--profile', 'flint', '--vault', vault]);
    try {
      let signalled = 0;
      const pid = own.pid() as number;
      const exited = new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          try {
            process.kill(pid, 0);
          } catch {
            clearInterval(poll);
            resolve();
          }
        }, 20);
      });
      const call = own.client.callTool(
        { name: 'create_note', arguments: { notes: batch('Drained', 1000) } },
        {
          timeout: 60_000,
          onprogress: (p) => {
            if (!signalled && p.progress > 0) {
              signalled = Date.now();
              process.kill(pid, 'SIGTERM');
            }
          },
        },
      );
      const result = await call;
      const answeredMs = Date.now() - signalled;
      await exited;
      const exitMs = Date.now() - signalled;
      process.stderr.write(`drain: answered ${answeredMs} ms and exited ${exitMs} ms after SIGTERM\n`);
      expect(signalled).toBeGreaterThan(0);
      expect(result.structuredContent).toMatchObject({ total: 1000, successful: 1000 });
      expect(own.stderr()).not.toMatch(/database connection is not open/);
      const db = new Database(path.join(vault, '.flint-note', 'notekernel.db'), { readonly: true });
      const { n } = db.prepare("SELECT count(*) AS n FROM notes WHERE title LIKE 'Drained %'").get() as { n: number };
      db.close();
      expect(n).toBe(1000);
    } finally {
      await own.close();
      await removeDir(vault);
    }
  }, 120_000);
});
