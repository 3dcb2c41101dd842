/**
 * A tool that asks (InputNeededError) through a real MCP client, both eras, over HTTP: a 2026-07-28
 * client gets an input-required result and calls again with the answer (the SDK client does that
 * with its elicitation handler); a 2025 client is sent elicitation/create by the SDK's shim. A
 * client that declared no elicitation capability is refused, and the CLI reports the question.
 * The asking tools are the conformance fixtures (test/support/conformance/fixtures-plugin.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERN_REVISION } from '../../support/mcp.js';

const SERVER = path.resolve('dist/test/support/conformance/serve.js');
let child: ChildProcess;
let url: URL;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-input-'));
  child = spawn(process.execPath, [SERVER, '--http', '--vault', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  url = await new Promise<URL>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const found = /http:\/\/\S+\/mcp/.exec(log);
      if (found) resolve(new URL(found[0]));
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${log}`)));
  });
}, 30_000);

afterAll(() => {
  child?.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function connect(era: 'legacy' | 'modern', answer: { action: 'accept' | 'decline' } | undefined) {
  const client = new Client(
    { name: `input-${era}`, version: '1.0.0' },
    {
      capabilities: answer ? { elicitation: { form: {} } } : {},
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_REVISION } } } : {}),
    },
  );
  const asked: string[] = [];
  if (answer)
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return answer.action === 'accept' ? { action: 'accept', content: { confirmed: true } } : { action: 'decline' };
    });
  await client.connect(new StreamableHTTPClientTransport(url));
  return { client, asked };
}

describe.each(['modern', 'legacy'] as const)('a tool that asks, %s era', (era) => {
  it('asks the client and answers with what it said', async () => {
    const { client, asked } = await connect(era, { action: 'accept' });
    const result = await client.callTool({ name: 'test_streaming_elicitation', arguments: {} });
    expect(asked).toEqual(['Confirm to go on?']);
    expect(result.structuredContent).toEqual({ answers: { confirm: { confirmed: true } } });
    await client.close();
  });

  it('hands a declined answer to the tool as null', async () => {
    const { client } = await connect(era, { action: 'decline' });
    const result = await client.callTool({ name: 'test_streaming_elicitation', arguments: {} });
    expect(result.structuredContent).toEqual({ answers: { confirm: null } });
    await client.close();
  });

  it('does not ask a client that cannot answer', async () => {
    const { client } = await connect(era, undefined);
    const outcome = await client.callTool({ name: 'test_streaming_elicitation', arguments: {} }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    // 2026: the SDK refuses with -32021 before the tool runs; 2025: the shim cannot send the request.
    if ('error' in outcome) expect(String((outcome.error as Error).message)).toMatch(/elicitation|capabilit/i);
    else expect(outcome.result.isError).toBe(true);
    await client.close();
  });
});
