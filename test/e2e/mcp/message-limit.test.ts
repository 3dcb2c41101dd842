/**
 * One size limit for a message, a note and an answer (issue 19 item 11, decision 028), end to
 * end against the built server: over stdio a 20 MB create_note is refused at once and the
 * session goes on; over HTTP the same request gets 413 with the same sentence; answers above the
 * limit (a huge note on disk, a huge link graph) are refused as too_large tool errors, not a
 * dropped connection; the limit is configurable and the CLI applies it to a tool's arguments.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI } from '../../support/cli.js';
import { INITIALIZE, jsonOf, rawRequest } from '../../support/raw-http.js';
import { runCli } from '../../support/run-cli.js';
import {
  callTool,
  connectHttp,
  connectStdio,
  startHttpServer,
  type HttpServerProcess,
  type StdioSession,
} from '../../support/mcp.js';
import { removeDir, tempDir } from '../../support/temp.js';

const MB = 1024 * 1024;
const LIMIT_SENTENCE =
  /: \d+ bytes, above the size limit of 4194304 bytes \(4 MiB\); send less, or raise limits\.messageBytes in the config file or NOTEKERNEL_MAX_MESSAGE_BYTES/;

async function errorOf(promise: Promise<unknown>): Promise<{ code?: number; message: string }> {
  const err = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code?: number; message?: string } | undefined;
  if (!err) throw new Error('expected the call to fail');
  return { ...(err.code !== undefined ? { code: err.code } : {}), message: err.message ?? String(err) };
}

const BIG_CALL = {
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'create_note', arguments: { title: 'Too big', content: 'x'.repeat(20 * MB) } },
};

/**
 * Milliseconds from starting to write a 20 MB request on the server's stdin to its error
 * answer, with no SDK client around it (the SDK's own serialisation is not the server's time).
 */
async function rawStdioRefusal(
  vault: string,
): Promise<{ ms: number; answer: { id?: unknown; error?: { code: number; message: string } } }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--profile', 'flint', '--vault', vault], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const lines: string[] = [];
  let waiting: (() => void) | undefined;
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
      lines.push(buffered.slice(0, i));
      buffered = buffered.slice(i + 1);
    }
    waiting?.();
  });
  const answerTo = async (id: number) => {
    for (;;) {
      const line = lines.find((l) => (JSON.parse(l) as { id?: unknown }).id === id);
      if (line) return JSON.parse(line) as { id?: unknown; error?: { code: number; message: string } };
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  };
  try {
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    await answerTo(1);
    const line = `${JSON.stringify(BIG_CALL)}\n`;
    const started = Date.now();
    child.stdin.write(line);
    const answer = await answerTo(7);
    return { ms: Date.now() - started, answer };
  } finally {
    child.kill();
  }
}

let root: string;

beforeAll(async () => {
  root = await tempDir('nk-e2e-limit-');
  // A note far above the limit, written by another program: it may be listed, not sent whole.
  await fs.mkdir(path.join(root, 'general'), { recursive: true });
  await fs.writeFile(
    path.join(root, 'general', 'huge.md'),
    `---\ntitle: Huge\n---\n${'a line of a very long note\n'.repeat((12 * MB) / 26)}`,
  );
});

afterAll(async () => {
  await removeDir(root);
});

describe('over stdio', () => {
  let session: StdioSession;

  beforeAll(async () => {
    session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('answers a 20 MB request with its error', async () => {
    const { ms, answer } = await rawStdioRefusal(root);
    console.info(`20 MB request over stdio refused after ${ms} ms`);
    expect(answer).toMatchObject({ id: 7, error: { code: -32600, message: expect.stringMatching(LIMIT_SENTENCE) } });
  }, 30_000);

  it('refuses a 20 MB create_note from an SDK client and keeps the session', async () => {
    const content = 'x'.repeat(20 * MB);
    const err = await errorOf(
      session.client.callTool({ name: 'create_note', arguments: { title: 'Too big', content } }),
    );
    expect(err.code).toBe(-32600);
    expect(err.message).toMatch(/A message/);
    expect(err.message).toMatch(LIMIT_SENTENCE);
    const after = await callTool(session.client, 'create_note', { title: 'After the refusal', content: 'still here' });
    expect(after.isError).toBe(false);
    await expect(fs.stat(path.join(root, 'general', 'too-big.md'))).rejects.toThrow();
  }, 30_000);

  it('takes a 3 MB note and gives it back whole', async () => {
    const content = 'three megabytes of text, line by line\n'.repeat((3 * MB) / 38);
    const created = await callTool(session.client, 'create_note', { title: 'Three megabytes', content });
    expect(created.isError).toBe(false);
    const read = await callTool(session.client, 'get_note', { identifier: (created.body as { id: string }).id });
    expect(read.isError).toBe(false);
    expect((read.body as { content: string }).content.trim()).toBe(content.trim());
  }, 30_000);

  it('refuses a 12 MB answer as a too_large tool error naming the limit, and answers the next call', async () => {
    const answer = await callTool(session.client, 'get_note', { identifier: 'general/huge.md' });
    expect(answer.isError).toBe(true);
    expect(answer.body).toMatchObject({
      error: 'too_large',
      limit: 4 * MB,
      message: expect.stringMatching(LIMIT_SENTENCE),
    });
    expect((answer.body as { message: string }).message).toMatch(/The answer of get_note: .*Ask for less/);
    const next = await callTool(session.client, 'list_notes_by_type', { type: 'general', limit: 5 });
    expect(next.isError).toBe(false);
  }, 30_000);
});

describe('over HTTP', () => {
  let server: HttpServerProcess;

  beforeAll(async () => {
    server = await startHttpServer(['--profile', 'flint', '--vault', root]);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('answers a 20 MB request with 413 and the same sentence', async () => {
    const init = await rawRequest(server.url, { body: INITIALIZE });
    const session = init.headers['mcp-session-id'] as string;
    const body = JSON.stringify(BIG_CALL);
    const started = Date.now();
    const answer = await rawRequest(server.url, {
      body,
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    });
    console.info(`20 MB request over HTTP refused after ${Date.now() - started} ms`);
    expect(answer.status).toBe(413);
    expect(jsonOf(answer)).toMatchObject({ error: { code: -32600, message: expect.stringMatching(LIMIT_SENTENCE) } });
  }, 30_000);

  it('refuses a 20 MB create_note from an SDK client and keeps the session', async () => {
    const client = await connectHttp(server.url);
    try {
      const content = 'x'.repeat(20 * MB);
      const err = await errorOf(client.callTool({ name: 'create_note', arguments: { title: 'Too big', content } }));
      expect(err.message).toMatch(LIMIT_SENTENCE);
      const after = await callTool(client, 'list_notes_by_type', { type: 'general', limit: 1 });
      expect(after.isError).toBe(false);
    } finally {
      await client.close();
    }
  }, 30_000);

  it('refuses the 12 MB answer the same way as stdio', async () => {
    const client = await connectHttp(server.url);
    try {
      const answer = await callTool(client, 'get_note', { identifier: 'general/huge.md' });
      expect(answer.body).toMatchObject({ error: 'too_large', limit: 4 * MB });
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe('configured', () => {
  it('NOTEKERNEL_MAX_MESSAGE_BYTES lowers the limit for stdio and names the new limit', async () => {
    const own = await connectStdio(['serve', '--profile', 'flint', '--vault', root], {
      NOTEKERNEL_MAX_MESSAGE_BYTES: String(MB),
    });
    try {
      const err = await errorOf(
        own.client.callTool({ name: 'create_note', arguments: { title: 'Two MB', content: 'y'.repeat(2 * MB) } }),
      );
      expect(err.message).toMatch(/above the size limit of 1048576 bytes \(1 MiB\)/);
    } finally {
      await own.close();
    }
  }, 30_000);

  it('the CLI refuses tool arguments above the limit with the same sentence', async () => {
    const cli = await runCli(
      [
        'call',
        'create_note',
        JSON.stringify({ title: 'Big by CLI', content: 'z'.repeat(100_000) }),
        '--profile',
        'flint',
        '--vault',
        root,
      ],
      {
        env: { NOTEKERNEL_MAX_MESSAGE_BYTES: '65536' },
      },
    );
    expect(cli.code).not.toBe(0);
    expect(cli.stdout + cli.stderr).toMatch(
      /The arguments of create_note: \d+ bytes, above the size limit of 65536 bytes \(64 KiB\)/,
    );
  }, 30_000);
});
