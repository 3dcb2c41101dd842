/**
 * MCP over stdio. stdout carries only protocol frames; logs go to stderr or a file. The
 * returned promise settles once the client hangs up or a signal arrives and the vault has
 * been flushed and closed.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ToolHost } from '../../kernel/tool-host.js';
import { createMcpServer } from './server.js';

export async function serveStdio(vault: ToolHost, onShutdown: () => Promise<void>): Promise<void> {
  const server = createMcpServer(vault);
  const transport = new StdioServerTransport();
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    vault.logger.info({ reason }, 'shutting down');
    try {
      await server.close();
    } finally {
      await onShutdown();
      resolveDone();
    }
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.stdin.once('end', () => void stop('stdin ended'));
  process.stdin.once('close', () => void stop('stdin closed'));
  transport.onclose = () => void stop('transport closed');
  await server.connect(transport);
  vault.logger.info({ root: vault.info.root, profile: vault.info.profile }, 'serving MCP over stdio');
  return done;
}
