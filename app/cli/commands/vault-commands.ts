/**
 * seed 000's vault CLI: `notekernel list | create | switch | current | update | remove`, on the
 * global registry. They need no open vault, except `create`, which initialises the new one.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { Kernel } from '../../../kernel/kernel.js';
import { kernelFromOptions, withCommonOptions, withRegistryOptions, type CommonOptions } from '../open.js';

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Opens a kernel (no vault), prints what `fn` returns, and always closes. */
async function withKernel(options: CommonOptions, fn: (kernel: Kernel) => Promise<unknown>): Promise<void> {
  const kernel = await kernelFromOptions(options, 'warn');
  try {
    print(await fn(kernel));
  } finally {
    await kernel.close();
  }
}

export function addVaultCommands(program: Command): void {
  withRegistryOptions(program.command('list').description('list the registered vaults')).action((options: CommonOptions) =>
    withKernel(options, async (kernel) => {
      const current = await kernel.registry.currentId();
      return { vaults: (await kernel.registry.list()).map((v) => ({ ...v, is_current: v.id === current })), current_vault: current ?? null };
    }),
  );

  withCommonOptions(program.command('create').description('create and register a vault with the default note types'))
    .argument('<id>', 'vault id')
    .argument('<name>', 'display name')
    .argument('<path>', 'folder (created if missing)')
    .option('-d, --description <text>', 'what the vault is for')
    .action((id: string, name: string, folder: string, options: CommonOptions & { description?: string }) =>
      withKernel(options, async (kernel) => {
        const root = path.resolve(folder);
        await fs.mkdir(root, { recursive: true });
        const entry = await kernel.registry.add({ id, name, path: root, ...(options.description ? { description: options.description } : {}) });
        const vault = await kernel.openVault(root, { id });
        await vault.init();
        return { success: true, vault: entry };
      }),
    );

  withRegistryOptions(program.command('switch').description('make a registered vault the current one'))
    .argument('<id>', 'vault id')
    .action((id: string, options: CommonOptions) => withKernel(options, async (kernel) => ({ success: true, vault: await kernel.registry.setCurrent(id) })));

  withRegistryOptions(program.command('current').description('show the current vault')).action((options: CommonOptions) =>
    withKernel(options, async (kernel) => {
      const id = await kernel.registry.currentId();
      return id ? kernel.registry.require(id) : { current_vault: null };
    }),
  );

  withRegistryOptions(program.command('update').description("change a vault's name or description"))
    .argument('<id>', 'vault id')
    .option('-n, --name <name>', 'new display name')
    .option('-d, --description <text>', 'new description')
    .action((id: string, options: CommonOptions & { name?: string; description?: string }) =>
      withKernel(options, async (kernel) => ({
        success: true,
        vault: await kernel.registry.update(id, { ...(options.name ? { name: options.name } : {}), ...(options.description ? { description: options.description } : {}) }),
      })),
    );

  withRegistryOptions(program.command('remove').description('remove a vault from the registry (its files are kept)'))
    .argument('<id>', 'vault id')
    .action((id: string, options: CommonOptions) => withKernel(options, async (kernel) => ({ success: true, removed: await kernel.registry.remove(id) })));
}
