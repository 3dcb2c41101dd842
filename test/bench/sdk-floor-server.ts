/**
 * The floor under issue 28's start-up target: the v2 MCP SDK alone, bundled as our CLI is, serving
 * one `get_note` that reads the note's file. No kernel, no index, no plugins: what any server
 * built on the SDK pays from spawn to its first answer. It opens as ours does, through the SDK's
 * serveStdio, so the opening picks the era for both (an `initialize` or a 2026-07-28 envelope).
 * Bundled by spawned-startup.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const root = process.argv[2] as string;
const tool = {
  name: 'get_note',
  description: 'Reads a note file.',
  inputSchema: { type: 'object' as const, properties: { identifier: { type: 'string' } }, required: ['identifier'] },
};

serveStdio(() => {
  const server = new Server({ name: 'sdk-floor', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [tool] }));
  server.setRequestHandler('tools/call', (request) => {
    const id = String(request.params.arguments?.identifier ?? '');
    return { content: [{ type: 'text', text: fs.readFileSync(path.join(root, id), 'utf8') }] };
  });
  return server;
});
