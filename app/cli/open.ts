/** Shared by every CLI command: options → kernel → router over the vault(s). */
import os from 'node:os';
import path from 'node:path';
import { type Command, Option } from 'commander';
import { ExitCode } from './exit-code.js';
import type { ServedKernel as Kernel } from '../create-kernel.js';
import { LOG_FORMATS, type LogFormat } from '../logging/logger.js';
import { createKernel } from '../create-kernel.js';
import type { ProgressReporter } from '../../kernel/progress.js';
import type { Vault } from '../../kernel/vault.js';
import { createRouter, type VaultRouter } from '../vaults/router.js';
import { AGENT_MEMORY_PROFILE } from '../../profiles/agent-memory/detect.js';
import { memoryFolderHere } from './memory-folder.js';
import { withObsidianEnvironment } from '../../profiles/obsidian/environment.js';
import { withNotariumEnvironment } from '../../profiles/notarium/environment.js';

export interface CommonOptions {
  profile?: string;
  vault?: string;
  /** flint-note's `--workspace` / `--workspace-path`: the same as `--vault`. */
  workspace?: string;
  workspacePath?: string;
  config?: string;
  readOnly?: boolean;
  logLevel?: string;
  logFile?: string;
  logFormat?: LogFormat;
}

const logFormatOption = () =>
  new Option('--log-format <format>', 'log lines: auto (readable on a terminal, JSON otherwise), pretty or json')
    .choices(LOG_FORMATS)
    .env('NOTEKERNEL_LOG_FORMAT');

export function withCommonOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '-p, --profile <id>',
        'profile: flint, zettelkasten, agent-memory, notarium or obsidian (built in), or one your config adds',
      ),
    )
    .addOption(
      new Option(
        '-v, --vault <dir>',
        "vault folder (default: the config's vault, else the registry's current vault)",
      ).env('NOTEKERNEL_VAULT'),
    )
    .addOption(new Option('--workspace <dir>', "the same as --vault (flint-note's name for it)").hideHelp())
    .addOption(new Option('--workspace-path <dir>', "the same as --vault (flint-note's name for it)").hideHelp())
    .addOption(
      new Option('-c, --config <file>', 'config file (default: searched in the vault, then the working directory)'),
    )
    .addOption(new Option('--read-only', 'refuse every tool that writes'))
    .addOption(new Option('--log-level <level>', 'fatal, error, warn, info, debug, trace, silent'))
    .addOption(new Option('--log-file <file>', 'write logs to this file instead of stderr'))
    .addOption(logFormatOption());
}

/** The registry commands (list, switch, …) open no vault: only the config and logging apply. */
export function withRegistryOptions(command: Command): Command {
  return command
    .addOption(new Option('-c, --config <file>', 'config file (default: searched in the working directory)'))
    .addOption(new Option('--log-level <level>', 'fatal, error, warn, info, debug, trace, silent'))
    .addOption(new Option('--log-file <file>', 'write logs to this file instead of stderr'))
    .addOption(logFormatOption());
}

/**
 * `~/notes` as the user wrote it: MCP clients (Claude Desktop, Cursor) start the server without
 * a shell, so nothing else expands the `~` of a pasted config.
 */
export function expandHome(dir: string): string {
  return dir === '~' || dir.startsWith('~/') || dir.startsWith('~\\') ? path.join(os.homedir(), dir.slice(1)) : dir;
}

/**
 * `--workspace` / `--workspace-path` (flint-note's flags, so an MCP client config written for it
 * works unchanged) as `--vault`; two different folders are a usage error.
 */
export function withWorkspaceAsVault<T extends CommonOptions>(options: T): T {
  const given = [options.vault, options.workspace, options.workspacePath].filter((v): v is string => v !== undefined);
  if (given.length === 0) return options;
  const distinct = [...new Set(given.map((v) => path.resolve(expandHome(v))))];
  if (distinct.length > 1) {
    process.stderr.write(
      `notekernel: --vault and --workspace name different folders (${given.join(', ')}): give one.\n`,
    );
    throw new ExitCode(2);
  }
  const { workspace: _w, workspacePath: _p, ...rest } = options;
  return { ...rest, vault: given[0] } as T;
}

export async function kernelFromOptions(options: CommonOptions, defaultLogLevel?: string): Promise<Kernel> {
  options = withWorkspaceAsVault(options);
  if (options.vault) options = { ...options, vault: expandHome(options.vault) };
  const searchFrom = [...(options.vault ? [options.vault] : []), process.cwd()];
  return createKernel({
    ...(options.profile ? { profile: options.profile } : {}),
    ...(options.config ? { configPath: options.config } : { searchFrom }),
    ...(options.readOnly ? { readOnly: true } : {}),
    // Seed 004's VAULT_PATH and CHROMA_PATH, seed 003's LOG_LEVEL and LOG_FILE_PATH (environment or .env), each for its profile only.
    adjustConfig: (config) => withNotariumEnvironment(withObsidianEnvironment(config)),
    logging: {
      ...(options.logLevel ? { level: options.logLevel } : {}),
      ...(options.logFile ? { file: options.logFile } : {}),
      ...(options.logFormat ? { format: options.logFormat } : {}),
      ...(defaultLogLevel ? { defaultLevel: defaultLogLevel } : {}),
    },
  });
}

export async function openFromOptions(
  options: CommonOptions,
  extra: {
    watch?: boolean;
    defaultLogLevel?: string;
    progress?: ProgressReporter;
    beforeOpen?: (kernel: Kernel) => Promise<void>;
  } = {},
): Promise<{ kernel: Kernel; router: VaultRouter; vault: Vault }> {
  options = withWorkspaceAsVault(options);
  if (options.vault) options = { ...options, vault: expandHome(options.vault) };
  else if (!options.config) options = await memoryFolderDefaults(options);
  const kernel = await kernelFromOptions(options, extra.defaultLogLevel);
  try {
    await extra.beforeOpen?.(kernel);
    const router = createRouter(kernel, {
      ...(extra.watch !== undefined ? { watch: extra.watch } : {}),
      ...(extra.progress ? { progress: extra.progress } : {}),
    });
    const vault = await router.start(options.vault);
    return { kernel, router, vault };
  } catch (err) {
    await kernel.close();
    throw err;
  }
}

/** No vault given, run inside an agent-memory root: that folder, with its profile (decision 027's "open what is there"). */
async function memoryFolderDefaults(options: CommonOptions): Promise<CommonOptions> {
  const here = await memoryFolderHere(process.cwd(), options.profile);
  if (!here) return options;
  if (process.stderr.isTTY)
    process.stderr.write(
      `notekernel: this folder is an agent-memory root: opening it (--profile ${AGENT_MEMORY_PROFILE} --vault .)\n`,
    );
  return { ...options, profile: AGENT_MEMORY_PROFILE, vault: here };
}
