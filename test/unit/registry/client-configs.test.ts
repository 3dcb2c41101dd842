/**
 * The configs a user pastes, and the README lines they copy, start one server: the one the end-to-end
 * test starts from examples/claude-desktop.json and examples/cursor-mcp.json (test/e2e/installed-package).
 * The forms that test does not spawn (VS Code's .vscode/mcp.json, Claude Code's `claude mcp add`) are
 * held here to the same command and arguments, and the HTTP entries to the URL server.json documents.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/cli.js';

interface Entry {
  type?: string;
  command?: string;
  args?: string[];
  url?: string;
}
const read = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'));
const mcpServers = (file: string) => (read(file) as { mcpServers: Record<string, Entry> }).mcpServers;
const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

describe('the pasted client configs', () => {
  const cursor = mcpServers('examples/cursor-mcp.json');
  const desktop = mcpServers('examples/claude-desktop.json');
  const vscode = (read('examples/vscode-mcp.json') as { servers: Record<string, Entry> }).servers;

  it("VS Code's form starts what the Cursor config starts, over stdio and over HTTP", () => {
    expect(vscode.notekernel).toEqual({ type: 'stdio', ...cursor.notekernel });
    expect(vscode['notekernel-http']).toEqual({ type: 'http', url: cursor['notekernel-http']?.url });
  });

  it('the HTTP entries name the URL server.json documents for serve --http', () => {
    const server = read('server.json') as {
      packages: {
        transport: { type: string; url?: string };
        packageArguments?: { name?: string; default?: string }[];
      }[];
    };
    const http = server.packages.find((p) => p.transport.type === 'streamable-http')!;
    const port = http.packageArguments?.find((a) => a.name === '--port')?.default ?? '';
    expect(cursor['notekernel-http']?.url).toBe(http.transport.url?.replace('{--port}', port));
  });

  it("the README's `claude mcp add` lines start the Claude Desktop server and reach the HTTP URL", () => {
    const stdio = /`claude mcp add notekernel -- ([^`]+)`/.exec(readme)?.[1]?.split(' ');
    expect(stdio).toEqual([desktop.notekernel?.command, ...(desktop.notekernel?.args ?? [])]);
    const http = /`claude mcp add --transport http notekernel-http (\S+)`/.exec(readme)?.[1];
    expect(http).toBe(cursor['notekernel-http']?.url);
  });

  it('the README names every config in examples/', () => {
    const configs = fs.readdirSync(path.join(REPO_ROOT, 'examples')).filter((f) => f.endsWith('.json'));
    expect(configs.length).toBeGreaterThanOrEqual(5);
    for (const file of configs) expect(readme, file).toContain(file.replace(/-npx\.json$/, '.json'));
  });
});
