/**
 * A real SDK client linked in memory to the MCP server of one vault: no process, no wire, the
 * speed of a unit test. Both halves of the pair come from the client package, as the SDK asks
 * (each package bundles its own InMemoryTransport with private state); the server only needs the
 * Transport interface of its half.
 */
import { type Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createMcpServer, type McpServerOptions } from '../../app/mcp/server.js';
import type { ToolHost } from '../../app/tool-host.js';
import { type ClientOptions, newClient } from './mcp.js';

export async function connectInMemory(
  vault: ToolHost,
  options: ClientOptions = {},
  server: McpServerOptions = {},
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(vault, server).connect(serverSide);
  const client = newClient(options);
  await client.connect(clientSide);
  return client;
}
