/**
 * Commands contributed by plugins (`notekernel migrate …`, `notekernel links-repair …`). A
 * plugin declares their names statically, so the CLI lists them in its help and picks a profile
 * that has the command before any vault is opened; the command then runs with the vault open.
 * commander parses the kernel's own options (and --help); the rest goes to the plugin as given.
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { Catalogue } from '../../../kernel/kernel.js';
import { ExitCode } from '../exit-code.js';
import { openFromOptions, withCommonOptions, type CommonOptions } from '../open.js';
import { progressBar } from '../progress-bar.js';

export function addPluginCommands(program: Command, catalogue: Catalogue): void {
  const seen = new Set(program.commands.map((c) => c.name()));
  for (const plugin of catalogue.plugins) {
    for (const declared of plugin.commands ?? []) {
      if (seen.has(declared.name)) continue;
      seen.add(declared.name);
      withCommonOptions(program.command(declared.name).description(`${declared.summary ?? `a command of the ${plugin.id} plugin`} (plugin ${plugin.id})`))
        .usage(`${declared.usage ?? '[args...]'} [options]`)
        .argument('[args...]', "the command's own arguments")
        .allowUnknownOption()
        .action(async (args: string[], options: CommonOptions) => {
          const code = await runPluginCommand(declared.name, args, options, catalogue);
          if (code !== 0) throw new ExitCode(code);
        });
    }
  }
}

export async function runPluginCommand(name: string, rest: readonly string[], options: CommonOptions, catalogue: Catalogue): Promise<number> {
  const declared = catalogue.plugins.filter((p) => p.commands?.some((c) => c.name === name));
  const ids = new Set(declared.map((p) => p.id));
  // With no --profile, the first profile that loads a plugin with this command serves it.
  const profile = options.profile ?? catalogue.profiles.find((p) => Object.keys(p.plugins).some((id) => ids.has(id)))?.id;
  const vaultFlag = declared.flatMap((p) => p.commands ?? []).find((c) => c.name === name)?.vaultFlag;
  const flagged = vaultFlag ? rest[rest.indexOf(vaultFlag) + 1] : undefined;
  const vault = options.vault ?? (vaultFlag && rest.includes(vaultFlag) ? flagged : undefined) ?? process.cwd();
  const { kernel, vault: open } = await openFromOptions({ ...options, ...(profile ? { profile } : {}), vault: path.resolve(vault) }, { defaultLogLevel: 'warn' });
  try {
    const command = open.cliCommands().find((c) => c.name === name);
    if (!command) {
      process.stderr.write(`notekernel: "${name}" is not available in profile ${open.info.profile}; its plugin is not loaded.\n`);
      return 2;
    }
    return await command.run([...rest], { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text), progress: progressBar() });
  } finally {
    await kernel.close();
  }
}
