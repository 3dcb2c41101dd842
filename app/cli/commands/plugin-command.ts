/**
 * Commands contributed by plugins (`notekernel migrate …`, `notekernel links-repair …`). A
 * plugin declares their names, arguments and options statically, so the CLI lists them in its
 * help, parses them with commander like every other command (an unknown option or a missing
 * argument is refused before anything opens) and picks a profile that has the command; the
 * command then runs with the vault open and receives what was parsed.
 */
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { Catalogue } from '../../../profiles/catalogue-types.js';
import type { CliCommandDeclaration, CliInput } from '../../../kernel/plugin.js';
import { ExitCode } from '../exit-code.js';
import { openFromOptions, withCommonOptions, type CommonOptions } from '../open.js';
import { progressBar } from '../progress-bar.js';

export function addPluginCommands(program: Command, catalogue: Catalogue): void {
  const seen = new Set(program.commands.map((c) => c.name()));
  for (const plugin of catalogue.plugins) {
    for (const declared of plugin.commands ?? []) {
      if (seen.has(declared.name)) continue;
      seen.add(declared.name);
      const command = withCommonOptions(
        program
          .command(declared.name)
          .description(`${declared.summary ?? `a command of the ${plugin.id} plugin`} (plugin ${plugin.id})`),
      );
      for (const argument of declared.arguments ?? []) command.argument(argument.name, argument.description);
      // The arguments first, as the commands' own usage lines read (`migrate <step> [options]`).
      if (declared.arguments?.length) command.usage(`${declared.arguments.map((a) => a.name).join(' ')} [options]`);
      for (const option of declared.options ?? []) command.option(option.flags, option.description);
      command.action(async (...params: unknown[]) => {
        const parsed = params[params.length - 1] as Command;
        const all = parsed.opts<CommonOptions & Record<string, string | boolean | undefined>>();
        const input: CliInput = {
          args: parsed.processedArgs.filter((a): a is string => typeof a === 'string'),
          options: ownOptions(declared, all),
        };
        const code = await runPluginCommand(declared, input, all, catalogue);
        if (code !== 0) throw new ExitCode(code);
      });
    }
  }
}

/** The options the command declared, by commander's attribute name: the common ones are the CLI's. */
function ownOptions(declared: CliCommandDeclaration, all: Record<string, unknown>): CliInput['options'] {
  const own: Record<string, string | boolean | undefined> = {};
  for (const option of declared.options ?? []) {
    const name = new Option(option.flags).attributeName();
    const value = all[name];
    if (typeof value === 'string' || typeof value === 'boolean') own[name] = value;
  }
  return own;
}

async function runPluginCommand(
  declared: CliCommandDeclaration,
  input: CliInput,
  options: CommonOptions,
  catalogue: Catalogue,
): Promise<number> {
  const { name } = declared;
  const ids = new Set(catalogue.plugins.filter((p) => p.commands?.some((c) => c.name === name)).map((p) => p.id));
  // With no --profile, the first profile that loads a plugin with this command serves it.
  const profile =
    options.profile ?? catalogue.profiles.find((p) => Object.keys(p.plugins).some((id) => ids.has(id)))?.id;
  const fromOption = declared.vaultOption ? input.options[new Option(declared.vaultOption).attributeName()] : undefined;
  const vault = options.vault ?? (typeof fromOption === 'string' ? fromOption : undefined) ?? process.cwd();
  const { kernel, vault: open } = await openFromOptions(
    { ...options, ...(profile ? { profile } : {}), vault: path.resolve(vault) },
    { defaultLogLevel: 'warn' },
  );
  try {
    const command = open.cliCommands().find((c) => c.name === name);
    if (!command) {
      process.stderr.write(
        `notekernel: "${name}" is not available in profile ${open.info.profile}; its plugin is not loaded.\n`,
      );
      return 2;
    }
    return await command.run(input, {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      progress: progressBar(),
    });
  } finally {
    await kernel.close();
  }
}
