import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Catalogue } from '../../../profiles/catalogue-types.js';
import { createKernel } from '../../../app/index.js';
import { definePlugin, provide, type PluginDefinition } from '../../../kernel/plugin.js';
import { defineTool } from '../../../kernel/tool.js';
import { token } from '../../../kernel/container.js';
import { silentLogger } from '../../../kernel/logger.js';
import { NotekernelError } from '../../../kernel/errors.js';
import { fsSqliteBackend } from '../../../backends/fs-sqlite/index.js';
import { removeDir, tempDir } from '../../support/temp.js';

const events: string[] = [];
const dirs: string[] = [];

afterEach(async () => {
  events.length = 0;
  await Promise.all(dirs.splice(0).map(removeDir));
});

function plugin(id: string, extra: Partial<PluginDefinition<unknown>> = {}): PluginDefinition<unknown> {
  return definePlugin<unknown>({
    id,
    description: `test plugin ${id}`,
    register() {
      events.push(`register:${id}`);
      return { dispose: () => void events.push(`dispose:${id}`) };
    },
    ...extra,
  });
}

function catalogue(plugins: PluginDefinition<unknown>[], enabled = plugins.map((p) => p.id)): Catalogue {
  return {
    plugins,
    backends: [fsSqliteBackend],
    profiles: [
      {
        id: 'test',
        description: 'test',
        storage: { backend: 'fs-sqlite' },
        plugins: Object.fromEntries(enabled.map((id) => [id, true])),
      },
    ],
  };
}

async function openWith(cat: Catalogue, config = {}) {
  const kernel = await createKernel({ profile: 'test', config, catalogue: cat, logger: silentLogger() });
  const root = await tempDir();
  dirs.push(root);
  const vault = await kernel.openVault(root);
  return { kernel, vault };
}

async function failure(promise: Promise<unknown>): Promise<NotekernelError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(NotekernelError);
    return err as NotekernelError;
  }
  throw new Error('expected a failure');
}

describe('kernel lifecycle', () => {
  it('registers plugins in dependsOn order, keeping config order otherwise', async () => {
    const cat = catalogue([plugin('c', { dependsOn: ['b'] }), plugin('a'), plugin('b', { dependsOn: ['a'] })]);
    const { kernel } = await openWith(cat);
    expect(events).toEqual(['register:a', 'register:b', 'register:c']);
    await kernel.close();
  });

  it('refuses a dependency cycle, naming it', async () => {
    const cat = catalogue([plugin('a', { dependsOn: ['b'] }), plugin('b', { dependsOn: ['a'] })]);
    const err = await failure(createKernel({ profile: 'test', config: {}, catalogue: cat, logger: silentLogger() }));
    expect(err.code).toBe('plugin_dependency');
    expect(err.message).toContain('a → b → a');
  });

  it('refuses a missing dependency, naming the plugin and the missing one', async () => {
    const cat = catalogue([plugin('links', { dependsOn: ['note-types'] })]);
    const err = await failure(createKernel({ profile: 'test', config: {}, catalogue: cat, logger: silentLogger() }));
    expect(err.code).toBe('plugin_dependency');
    expect(err.message).toContain('"links"');
    expect(err.message).toContain('"note-types"');
  });

  it('refuses a capability the backend lacks before any I/O, naming plugin, backend and capability', async () => {
    const cat = catalogue([plugin('git-timestamps', { requires: ['git-history'] })]);
    const err = await failure(createKernel({ profile: 'test', config: {}, catalogue: cat, logger: silentLogger() }));
    expect(err.code).toBe('capability_missing');
    expect(err.message).toContain('git-timestamps');
    expect(err.message).toContain('fs-sqlite');
    expect(err.message).toContain('git-history');
    expect(events).toEqual([]);
  });

  it('refuses a tool whose required capability is missing when the vault opens', async () => {
    const sqlTool = defineTool({
      name: 'run_sql',
      description: 'needs vectors',
      input: z.object({}),
      annotations: { readOnlyHint: true },
      // fs-sqlite declares `sql` now; `vectors` is one it lacks.
      requires: ['vectors'],
      handler: async () => 1,
    });
    const cat = catalogue([
      definePlugin({ id: 'sql-tools', description: 'x', register: () => ({ tools: [sqlTool] }) }),
    ]);
    const kernel = await createKernel({ profile: 'test', config: {}, catalogue: cat, logger: silentLogger() });
    const root = await tempDir();
    dirs.push(root);
    const err = await failure(kernel.openVault(root));
    expect(err.code).toBe('capability_missing');
    expect(err.message).toContain('run_sql');
    expect(err.message).toContain('vectors');
    await kernel.close();
  });

  it('disposes plugins in reverse registration order and closes the store', async () => {
    const cat = catalogue([plugin('a'), plugin('b', { dependsOn: ['a'] })]);
    const { kernel, vault } = await openWith(cat);
    await kernel.close();
    expect(events).toEqual(['register:a', 'register:b', 'dispose:b', 'dispose:a']);
    await expect(vault.notes.store.count()).rejects.toThrow(/not open|closed/i);
  });

  it('shares services between plugins only through typed tokens', async () => {
    const GREETER = token<{ greet(name: string): string }>('test.greeter');
    const provider = definePlugin({
      id: 'provider',
      description: 'x',
      register: () => ({ services: [provide(GREETER, { greet: (n: string) => `hi ${n}` })] }),
    });
    const consumer = definePlugin({
      id: 'consumer',
      description: 'x',
      dependsOn: ['provider'],
      register(ctx) {
        const greeter = ctx.resolve(GREETER);
        return {
          tools: [
            defineTool({
              name: 'greet',
              description: 'greets',
              input: z.object({ name: z.string() }),
              annotations: { readOnlyHint: true },
              handler: async ({ name }) => greeter.greet(name),
            }),
          ],
        };
      },
    });
    const { kernel, vault } = await openWith(catalogue([consumer, provider]));
    expect(await vault.call('greet', { name: 'ada' })).toBe('hi ada');
    await kernel.close();
  });

  it('names an unregistered service and who asked for it', async () => {
    const MISSING = token<string>('test.missing');
    const cat = catalogue([
      definePlugin({ id: 'needy', description: 'x', register: (ctx) => (ctx.resolve(MISSING), {}) }),
    ]);
    const kernel = await createKernel({ profile: 'test', config: {}, catalogue: cat, logger: silentLogger() });
    const root = await tempDir();
    dirs.push(root);
    const err = await failure(kernel.openVault(root));
    expect(err.message).toContain('test.missing');
    expect(err.message).toContain('needy');
    await kernel.close();
  });
});

describe('tool table', () => {
  const echo = (name: string) =>
    defineTool({
      name,
      description: 'echo',
      input: z.object({ text: z.string().describe('what to echo') }),
      annotations: { readOnlyHint: true },
      handler: async ({ text }) => text,
    });
  const writer = defineTool({
    name: 'write_it',
    description: 'writes',
    input: z.object({}),
    annotations: { readOnlyHint: false },
    handler: async () => 'written',
  });

  it('refuses two plugins contributing one tool name, and a rename resolves it', async () => {
    const cat = catalogue([
      definePlugin({ id: 'one', description: 'x', register: () => ({ tools: [echo('list')] }) }),
      definePlugin({ id: 'two', description: 'x', register: () => ({ tools: [echo('list')] }) }),
    ]);
    const kernel = await createKernel({ profile: 'test', config: {}, catalogue: cat, logger: silentLogger() });
    const root = await tempDir();
    dirs.push(root);
    const err = await failure(kernel.openVault(root));
    expect(err.message).toContain('"list"');
    expect(err.message).toMatch(/rename or hide/);
    await kernel.close();

    const renamed = await createKernel({
      profile: 'test',
      config: { tools: { rename: { list: 'sn_list' } } },
      catalogue: cat,
      logger: silentLogger(),
    });
    await expect(renamed.openVault(root)).rejects.toThrow(/"sn_list"/); // both renamed: still a clash
    await renamed.close();
  });

  it('hides tools named in config and serves renamed ones under the new name', async () => {
    const cat = catalogue([
      definePlugin({ id: 'one', description: 'x', register: () => ({ tools: [echo('list'), echo('get')] }) }),
    ]);
    const { kernel, vault } = await openWith(cat, { tools: { rename: { list: 'sn_list' }, hide: ['get'] } });
    expect(vault.tools().map((t) => t.name)).toEqual(['sn_list']);
    expect(await vault.call('sn_list', { text: 'x' })).toBe('x');
    await expect(vault.call('get', { text: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    await kernel.close();
  });

  it('validates arguments once, naming the field, and exposes JSON schema with descriptions', async () => {
    const cat = catalogue([definePlugin({ id: 'one', description: 'x', register: () => ({ tools: [echo('echo')] }) })]);
    const { kernel, vault } = await openWith(cat);
    const err = await failure(vault.call('echo', { text: 42 }));
    expect(err.code).toBe('validation_failed');
    expect(err.details.fields).toEqual(['text']);
    const schema = vault.tools()[0]?.inputSchema as { properties: Record<string, { description?: string }> };
    expect(schema.properties.text?.description).toBe('what to echo');
    await kernel.close();
  });

  it('refuses writing tools in read-only mode and serves reading ones', async () => {
    const cat = catalogue([
      definePlugin({ id: 'one', description: 'x', register: () => ({ tools: [echo('echo'), writer] }) }),
    ]);
    const { kernel, vault } = await openWith(cat, { readOnly: true });
    expect(await vault.call('echo', { text: 'ok' })).toBe('ok');
    await expect(vault.call('write_it', {})).rejects.toMatchObject({ code: 'read_only' });
    await kernel.close();
  });
});

describe('qualified tool names', () => {
  const echo = (name: string) =>
    defineTool({
      name,
      description: 'echo',
      input: z.object({}),
      annotations: { readOnlyHint: true },
      handler: async () => name,
    });

  it('separates two plugins serving one name with plugin/tool keys', async () => {
    const cat = catalogue([
      definePlugin({ id: 'one', description: 'x', register: () => ({ tools: [echo('list')] }) }),
      definePlugin({ id: 'two', description: 'x', register: () => ({ tools: [echo('list')] }) }),
    ]);
    const { kernel, vault } = await openWith(cat, { tools: { rename: { 'two/list': 'two_list' } } });
    expect(vault.tools().map((t) => [t.name, t.plugin])).toEqual([
      ['list', 'one'],
      ['two_list', 'two'],
    ]);
    await kernel.close();
  });
});
