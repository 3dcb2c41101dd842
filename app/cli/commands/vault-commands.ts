/**
 * seed 000's vault CLI: `notekernel list | create | switch | current | update | remove`, on the
 * global registry. They need no open vault, except `create`, which initialises the new one.
 * Readable lines by default, the registry's JSON with --json.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { ServedKernel as Kernel } from '../../create-kernel.js';
import type { VaultEntry } from '../../../plugins/vaults/registry.js';
import { kernelFromOptions, withCommonOptions, withRegistryOptions, type CommonOptions } from '../open.js';
import { emit, withJsonOption, type OutputOptions } from '../output/print.js';
import type { Style } from '../output/ansi-style.js';
import { fields, plural, table } from '../output/table.js';

type Options = CommonOptions & OutputOptions;

/** Opens a kernel (no vault), prints what `fn` returns, and always closes. */
async function withKernel<T>(
  options: Options,
  fn: (kernel: Kernel) => Promise<T>,
  render: (value: T, style: Style) => string,
): Promise<void> {
  const kernel = await kernelFromOptions(options, 'warn');
  try {
    emit(options, await fn(kernel), render);
  } finally {
    await kernel.close();
  }
}

function describe(entry: VaultEntry, style: Style): string {
  return fields(
    [
      ['id', style.bold(entry.id)],
      ['name', entry.name],
      ['path', entry.path],
      ...(entry.description ? [['description', entry.description] as const] : []),
    ],
    style,
    '  ',
  );
}

export function addVaultCommands(program: Command): void {
  withJsonOption(withRegistryOptions(program.command('list').description('list the registered vaults'))).action(
    (options: Options) =>
      withKernel(
        options,
        async (kernel) => {
          const current = await kernel.registry.currentId();
          return {
            vaults: (await kernel.registry.list()).map((v) => ({ ...v, is_current: v.id === current })),
            current_vault: current ?? null,
          };
        },
        ({ vaults }, style) => {
          if (!vaults.length)
            return `${style.dim('no vaults registered')}\n(register one: notekernel create <id> <name> <path>, or notekernel init <dir> --id <id>)`;
          const rows = vaults.map((v) => [
            v.is_current ? style.green('*') : ' ',
            v.is_current ? style.bold(v.id) : v.id,
            v.name,
            v.path,
          ]);
          return `${table([' ', 'id', 'name', 'path'], rows, style)}\n${style.dim(`${plural(vaults.length, 'vault')}; * marks the current one`)}`;
        },
      ),
  );

  withJsonOption(
    withCommonOptions(program.command('create').description('create and register a vault with the default note types')),
  )
    .argument('<id>', 'vault id')
    .argument('<name>', 'display name')
    .argument('<path>', 'folder (created if missing)')
    .option('-d, --description <text>', 'what the vault is for')
    .action((id: string, name: string, folder: string, options: Options & { description?: string }) =>
      withKernel(
        options,
        async (kernel) => {
          const root = path.resolve(folder);
          await fs.mkdir(root, { recursive: true });
          const entry = await kernel.registry.add({
            id,
            name,
            path: root,
            ...(options.description ? { description: options.description } : {}),
          });
          const vault = await kernel.openVault(root, { id });
          await vault.init();
          return { success: true, vault: entry };
        },
        ({ vault }, style) =>
          `${style.green('✓')} created and registered vault ${style.bold(vault.id)}\n${describe(vault, style)}`,
      ),
    );

  withJsonOption(withRegistryOptions(program.command('switch').description('make a registered vault the current one')))
    .argument('<id>', 'vault id')
    .action((id: string, options: Options) =>
      withKernel(
        options,
        async (kernel) => ({ success: true, vault: await kernel.registry.setCurrent(id) }),
        ({ vault }, style) =>
          `${style.green('✓')} current vault is now ${style.bold(vault.id)}\n${describe(vault, style)}`,
      ),
    );

  withJsonOption(withRegistryOptions(program.command('current').description('show the current vault'))).action(
    (options: Options) =>
      withKernel(
        options,
        async (kernel): Promise<VaultEntry | { current_vault: null }> => {
          const id = await kernel.registry.currentId();
          return id ? kernel.registry.require(id) : { current_vault: null };
        },
        (value, style) =>
          'id' in value
            ? `current vault ${style.bold(value.id)}\n${describe(value, style)}`
            : `${style.dim('no current vault')} (choose one: notekernel switch <id>)`,
      ),
  );

  withJsonOption(withRegistryOptions(program.command('update').description("change a vault's name or description")))
    .argument('<id>', 'vault id')
    .option('-n, --name <name>', 'new display name')
    .option('-d, --description <text>', 'new description')
    .action((id: string, options: Options & { name?: string; description?: string }) =>
      withKernel(
        options,
        async (kernel) => ({
          success: true,
          vault: await kernel.registry.update(id, {
            ...(options.name ? { name: options.name } : {}),
            ...(options.description ? { description: options.description } : {}),
          }),
        }),
        ({ vault }, style) => `${style.green('✓')} updated vault ${style.bold(vault.id)}\n${describe(vault, style)}`,
      ),
    );

  withJsonOption(
    withRegistryOptions(program.command('remove').description('remove a vault from the registry (its files are kept)')),
  )
    .argument('<id>', 'vault id')
    .action((id: string, options: Options) =>
      withKernel(
        options,
        async (kernel) => ({ success: true, removed: await kernel.registry.remove(id) }),
        ({ removed }, style) =>
          `${style.green('✓')} removed vault ${style.bold(removed.id)} from the registry; its files are kept in ${removed.path}`,
      ),
    );
}
