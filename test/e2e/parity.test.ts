/**
 * Parity: every tool a profile serves is reachable, with the same answer, over MCP (a real SDK
 * client on an in-memory pair), the CLI (`notekernel call`) and the library (`vault.call`).
 * Each tool is probed with empty arguments: tools that need arguments must fail identically
 * (same code, same fields) everywhere; tools that need none must answer identically.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { connectInMemory } from '../support/mcp-in-memory.js';
import { main } from '../../app/cli/main.js';
import { toNotekernelError } from '../../kernel/errors.js';
import { createTestKernel, type TestKernel } from '../support/temp.js';

const PROFILES = ['flint', 'zettelkasten', 'obsidian'];

async function viaCli(args: string[]): Promise<{ code: number; out: string }> {
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array) => (
    (out += chunk.toString()), true
  )) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    const code = await main(args);
    return { code, out };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
}

/** Volatile values (timestamps, directory mtimes) differ between two calls; compare the rest. */
function stable(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v: unknown) => (key === 'lastModified' ? '<time>' : v));
}

for (const profile of PROFILES) {
  describe(`tool parity: profile ${profile}`, () => {
    let t: TestKernel;
    let client: Client;

    beforeAll(async () => {
      t = await createTestKernel({ profile });
      client = await connectInMemory(t.vault, { name: 'parity' });
    });

    afterAll(async () => {
      await client.close();
      await t.close();
    });

    it('lists the same tools over MCP as the library serves', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name).sort()).toEqual(
        t.vault
          .tools()
          .map((x) => x.name)
          .sort(),
      );
      expect(tools.length).toBeGreaterThan(0);
    });

    it('answers every tool identically on all three surfaces', async () => {
      for (const tool of t.vault.tools()) {
        let library: { isError: boolean; body: unknown };
        try {
          library = { isError: false, body: await t.vault.call(tool.name, {}) };
        } catch (err) {
          library = { isError: true, body: toNotekernelError(err).toBody() };
        }
        const mcp = await client.callTool({ name: tool.name, arguments: {} });
        const mcpBody = JSON.parse((mcp.content as Array<{ text: string }>)[0]?.text ?? 'null') as unknown;
        expect(mcp.isError === true, tool.name).toBe(library.isError);
        expect(stable(mcpBody), tool.name).toEqual(stable(library.body));

        const cli = await viaCli([
          'call',
          tool.name,
          '{}',
          '--vault',
          t.root,
          '--profile',
          profile,
          '--log-level',
          'silent',
          '--json',
        ]);
        expect(cli.code !== 0, tool.name).toBe(library.isError);
        expect(stable(JSON.parse(cli.out)), tool.name).toEqual(stable(library.body));
      }
    });
  });
}
