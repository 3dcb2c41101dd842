/**
 * A bare v2 SDK server over stdio that serves both protocol eras (serveStdio), with one tool: the
 * other end for checking the test clients' eras before notekernel's own server speaks 2026-07-28.
 * Each start appends its pid to the file NK_SPAWN_LOG names, so a test can count processes.
 */
import fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

if (process.env.NK_SPAWN_LOG) fs.appendFileSync(process.env.NK_SPAWN_LOG, `${process.pid}\n`);

serveStdio(() => {
  const server = new McpServer({ name: 'modern-stdio-server', version: '1.0.0' });
  server.registerTool('ping', { description: 'Answers "pong".' }, async () => ({
    content: [{ type: 'text', text: '"pong"' }],
  }));
  return server;
});
