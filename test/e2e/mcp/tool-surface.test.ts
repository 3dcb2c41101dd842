/**
 * The tool surface of every profile over a real SDK Client (in-memory pair): every tool declares
 * an output schema describing its answer's fields, every tool is called and its
 * structuredContent validates against that schema (the SDK client checks it and throws
 * otherwise) and holds no field the schema leaves out; tools/list byte sizes are printed per
 * profile and held under a budget; annotations match what each tool does.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { connectInMemory } from '../../support/mcp-in-memory.js';
import type { Catalogue } from '../../../profiles/catalogue-types.js';
import { simplenoteBackendWith } from '../../../backends/simplenote/index.js';
import { builtinCatalogue } from '../../../profiles/catalogue.js';
import { startFakeSimperium, type FakeSimperium } from '../../support/fake-simperium/index.js';
import { envFor } from '../../support/simplenote-subject.js';
import { createTestKernel, tempDir, type TestKernel } from '../../support/temp.js';
import { SAMPLE_ARGS, WRITES } from './tool-surface-tables.js';

/**
 * tools/list bytes each profile must stay under (decision 017), pinned a little above today's so a
 * heavier description or schema is a deliberate change. `model` is the list without output
 * schemas, what a host hands the model: issue 15's 25 KB target for flint (35.6 KB before the
 * issue, 31.3 KB once schema noise went, 24.0 KB with terse descriptions). `whole` adds the
 * output schemas the client checks answers against; flint's leaves ~3 KB for dry runs on more
 * tools (a dry_run argument and the plan preview in their answers); agent-memory's grew by one
 * (migrate's plan preview, journalled), then by memory_replace_link, both timestamp forms and
 * the snake_case twins of its camelCase arguments (issue 31); flint's by update_note_type's
 * seed-table `field` / `value` arguments (~125 bytes, issue 31).
 */
const LIST_BUDGET: Record<string, { model: number; whole: number }> = {
  flint: { model: 25_000, whole: 51_700 },
  zettelkasten: { model: 12_900, whole: 23_900 },
  'agent-memory': { model: 10_500, whole: 23_500 },
  obsidian: { model: 13_300, whole: 21_800 },
  notarium: { model: 5_200, whole: 7_900 },
};

/** Tools whose answer carries the content_hash a later write needs: their schemas must say so. */
const HASH_IN_ANSWER = ['get_note', 'rename_note', 'create_file', 'memory_read'];

async function nestedVaultFolder(): Promise<string> {
  const folder = path.join(await tempDir(), 'vault');
  await fs.mkdir(folder);
  return folder;
}

/** notarium's account lives on a fake Simperium holding one note. */
let fake: FakeSimperium | undefined;
async function catalogueFor(profile: string): Promise<Catalogue | undefined> {
  if (profile !== 'notarium') return undefined;
  fake = await startFakeSimperium();
  fake.bucket().post('surface1', {
    content: 'Surface one\nbody',
    tags: ['x'],
    systemTags: [],
    creationDate: 1700000000,
    modificationDate: 1700000000,
    deleted: false,
    shareURL: '',
    publishURL: '',
  });
  const simplenote = simplenoteBackendWith({ env: envFor(fake) });
  return {
    ...builtinCatalogue,
    backends: builtinCatalogue.backends.map((b) => (b.id === 'simplenote' ? simplenote : b)),
  };
}

/** The obsidian profile's search runs the deterministic embedder here (the real model has its own e2e test). */
const CONFIG: Record<string, Record<string, unknown>> = {
  obsidian: { search: { backend: 'hybrid-search', options: { embedder: 'hashed', embedThreads: 0 } } },
};

for (const profile of ['flint', 'zettelkasten', 'agent-memory', 'obsidian', 'notarium']) {
  describe(`tool surface: profile ${profile}`, () => {
    let t: TestKernel;
    let client: Client;

    beforeAll(async () => {
      const catalogue = await catalogueFor(profile);
      // The served vault sits one level down in a temp folder, so create_vault's siblings land there too.
      t = await createTestKernel({
        profile,
        root: await nestedVaultFolder(),
        ...(CONFIG[profile] ? { config: CONFIG[profile] } : {}),
        ...(catalogue ? { catalogue } : {}),
      });
      client = await connectInMemory(t.vault, { name: 'surface' });
    });

    afterAll(async () => {
      await client.close();
      await t.close();
      await fake?.stop();
      fake = undefined;
    });

    it('no argument description restates the default its schema declares', async () => {
      const { tools } = await client.listTools();
      const restated: string[] = [];
      const visit = (node: unknown, at: string): void => {
        if (!node || typeof node !== 'object') return;
        const schema = node as {
          default?: unknown;
          description?: unknown;
          properties?: Record<string, unknown>;
          items?: unknown;
        };
        if (
          schema.default !== undefined &&
          typeof schema.description === 'string' &&
          /default/i.test(schema.description)
        )
          restated.push(at);
        for (const [name, child] of Object.entries(schema.properties ?? {})) visit(child, `${at}.${name}`);
        visit(schema.items, `${at}[]`);
      };
      for (const tool of tools) visit(tool.inputSchema, tool.name);
      expect(restated).toEqual([]);
    });

    it('declares an output schema for every tool, and tools/list stays under its byte budget', async () => {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
        // A real description of the answer, not a bare {"type":"object"}.
        expect(Object.keys(tool.outputSchema?.properties ?? {}).length, tool.name).toBeGreaterThan(0);
      }
      for (const name of HASH_IN_ANSWER.filter((n) => tools.some((t) => t.name === n))) {
        expect(Object.keys(tools.find((t) => t.name === name)?.outputSchema?.properties ?? {}), name).toEqual(
          expect.arrayContaining([expect.stringMatching(/^content_?[hH]ash$/)]),
        );
      }
      // A repeated shape is written once under $defs; the SDK client's validator (ajv) resolves the
      // local $ref when it checks the answer (the get_note_links call in the test below).
      if (profile === 'flint')
        expect(JSON.stringify(tools.find((t) => t.name === 'get_note_links')?.outputSchema)).toContain(
          '"$ref":"#/$defs/',
        );
      const whole = Buffer.byteLength(JSON.stringify({ tools }), 'utf8');
      const model = Buffer.byteLength(
        JSON.stringify({ tools: tools.map(({ outputSchema: _omitted, ...rest }) => rest) }),
        'utf8',
      );
      const largest = tools
        .map((tool) => `${tool.name} ${JSON.stringify(tool).length}`)
        .sort((a, b) => Number(b.split(' ')[1]) - Number(a.split(' ')[1]))
        .slice(0, 3);
      process.stderr.write(
        `tools/list ${profile}: ${tools.length} tools, ${whole} bytes, ${model} without output schemas (largest: ${largest.join(', ')})\n`,
      );
      expect(model).toBeLessThanOrEqual(LIST_BUDGET[profile]?.model as number);
      expect(whole).toBeLessThanOrEqual(LIST_BUDGET[profile]?.whole as number);
    });

    it('answers every tool with structuredContent that validates against its output schema', async () => {
      const { tools } = await client.listTools();
      let structured = 0;
      const read = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })).structuredContent as Record<string, unknown>;
      if (tools.some((t) => t.name === 'create_note')) {
        await read('create_note', { title: 'Spare', content: 'x' });
        await read('create_note', { title: 'Gone', content: 'x' });
      }
      const first = new Set(['create_note', 'create_file']);
      const last = [
        'delete_note_type',
        'move_note',
        'delete_note',
        'create_vault',
        'update_vault',
        'switch_vault',
        'remove_vault',
      ];
      const rank = (name: string) => (first.has(name) ? -1 : last.includes(name) ? last.indexOf(name) + 1 : 0);
      const ordered = [...tools].sort((a, b) => rank(a.name) - rank(b.name));
      const failures: string[] = [];
      for (const tool of ordered) {
        const sample = SAMPLE_ARGS[tool.name] ?? {};
        const args = typeof sample === 'function' ? await sample(read) : sample;
        // callTool throws when structuredContent is missing or does not match outputSchema.
        const result = await client.callTool({ name: tool.name, arguments: args });
        const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
        if (result.isError) {
          failures.push(`${tool.name}: ${text.slice(0, 200)}`);
          continue;
        }
        structured++;
        const parsed = JSON.parse(text) as unknown;
        expect(result.structuredContent, tool.name).toEqual(
          typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : { result: parsed },
        );
        // Every field of the answer is one the schema describes.
        const declared = Object.keys(tool.outputSchema?.properties ?? {});
        for (const key of Object.keys(result.structuredContent ?? {}))
          expect(declared, `${tool.name} answers ${key}`).toContain(key);
      }
      expect(failures).toEqual([]);
      expect(structured).toBe(tools.length);
    });

    it('annotates each tool by what it does', async () => {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        const writes = WRITES[tool.name];
        // Absent hints take MCP's defaults: readOnlyHint false, destructiveHint true.
        expect(tool.annotations?.readOnlyHint ?? false, tool.name).toBe(writes === undefined);
        if (writes) expect(tool.annotations?.destructiveHint ?? true, tool.name).toBe(writes === 'destructive');
        else expect(tool.annotations, tool.name).not.toHaveProperty('destructiveHint');
        expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
      }
    });
  });
}
