/**
 * Commands contributed by plugins (`notekernel migrate …`, `notekernel links-repair …`). A
 * plugin declares their names statically, so the CLI can pick a profile that has the command
 * before any vault is opened; the command then runs with the vault open.
 */
import path from 'node:path';
import type { Catalogue } from '../../../kernel/kernel.js';
import { openFromOptions, type CommonOptions } from '../open.js';

const VALUE_OPTIONS: Record<string, keyof CommonOptions> = {
  '--profile': 'profile',
  '-p': 'profile',
  '--vault': 'vault',
  '-v': 'vault',
  '--config': 'config',
  '-c': 'config',
  '--log-level': 'logLevel',
  '--log-file': 'logFile',
};

/** Splits the kernel's own options from the command's arguments. */
export function splitCommonOptions(argv: readonly string[]): { options: CommonOptions; rest: string[] } {
  const options: Record<string, unknown> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.includes('=') && arg.startsWith('--') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const key = VALUE_OPTIONS[flag];
    if (key) options[key] = inline ?? argv[++i];
    else if (arg === '--read-only') options.readOnly = true;
    else rest.push(arg);
  }
  if (!options.vault && process.env.NOTEKERNEL_VAULT) options.vault = process.env.NOTEKERNEL_VAULT;
  return { options: options as CommonOptions, rest };
}

export async function runPluginCommand(name: string, argv: readonly string[], catalogue: Catalogue): Promise<number> {
  const { options, rest } = splitCommonOptions(argv);
  const declared = catalogue.plugins.filter((p) => p.commands?.some((c) => c.name === name));
  if (declared.length === 0) {
    const known = catalogue.plugins.flatMap((p) => (p.commands ?? []).map((c) => c.name));
    process.stderr.write(`notekernel: unknown command "${name}". Plugin commands: ${known.join(', ') || '(none)'}; see notekernel --help.\n`);
    return 2;
  }
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
    return await command.run(rest, { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) });
  } finally {
    await kernel.close();
  }
}
