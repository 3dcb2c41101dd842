/**
 * The floor under issue 12's start-up target: the MCP SDK alone, bundled as our CLI is, serving
 * one `get_note` that reads the note's file. No kernel, no index, no plugins: what any server
 * built on the SDK pays from spawn to its first answer. Bundled by spawned-startup.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const root = process.argv[2] as string;
const server = new Server({ name: 'sdk-floor', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const id = String(request.params.arguments?.identifier ?? '');
  return { content: [{ type: 'text', text: fs.readFileSync(path.join(root, id), 'utf8') }] };
});
void server.connect(new StdioServerTransport());
