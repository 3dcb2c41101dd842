/**
 * `createKernel` as the package serves it: the user's config found on disk (cosmiconfig), the
 * logger made from it, the global vault registry beside the kernel, the built-in catalogue,
 * loaded lazily — the CLI and the library both start here, and importing the library's whole
 * entry (`app/index.ts`, which also re-exports the eager catalogue and the HTTP server) would
 * evaluate every backend at every CLI start.
 */
import type { Kernel } from '../kernel/kernel.js';
import { createKernel as createKernelWith, type KernelOptions as CoreKernelOptions } from './config/assemble.js';
import type { ResolvedConfig } from '../kernel/config/schema.js';
import type { Logger } from '../kernel/logger.js';
import { builtinLazyCatalogue } from '../profiles/builtins.js';
import { configDir } from '../plugins/vaults/config-dir.js';
import { VaultRegistry } from '../plugins/vaults/registry.js';
import { VAULT_REGISTRY } from '../plugins/vaults/service.js';
import { keepInStep } from '../toolkit/search-index/index-outbox.js';
import { loadUserConfig } from './config/load.js';
import { listedJsonSchema } from './listed-schema.js';
import { liftSeedConfig } from './config/seed-config.js';
import { createLogger, type LogFormat } from './logging/logger.js';

export interface KernelOptions extends Omit<CoreKernelOptions, 'configFile' | 'logger' | 'vaultNaming'> {
  /** Inline config (same shape as a config file); skips the file search. */
  config?: CoreKernelOptions['config'];
  /** Explicit config file. */
  configPath?: string;
  /** Folders searched for a config file when neither `config` nor `configPath` is given. */
  searchFrom?: string[];
  /** Where logs go. Without it (and without `logging`) an embedded kernel logs nothing. */
  logger?: Logger;
  /** Folder of the global vault registry (default: NOTEKERNEL_CONFIG_DIR or the platform's config folder). */
  configDir?: string;
  /** Overrides the config's logging (CLI flags); `defaultLevel` applies when nothing sets a level. */
  logging?: { level?: string; file?: string; format?: LogFormat; defaultLevel?: string };
}

/** Options of the kernel, the catalogue left out for the built-in one. */
export type CreateKernelOptions = Omit<KernelOptions, 'catalogue'> & Partial<Pick<KernelOptions, 'catalogue'>>;

/** A kernel with the global vault registry (seed 000's) its vaults are named from. */
export type ServedKernel = Kernel & { readonly registry: VaultRegistry };

/** A kernel over the built-in plugins, backends and profiles, unless `catalogue` names others. */
export async function createKernel(options: CreateKernelOptions = {}): Promise<ServedKernel> {
  const { configPath, searchFrom, configDir: registryDir, logging, logger, ...core } = options;
  let configFile: CoreKernelOptions['configFile'];
  if (!options.config) {
    const loaded = await loadUserConfig({
      ...(configPath ? { configPath } : {}),
      ...(searchFrom ? { searchFrom } : {}),
    });
    // No file found: the profile's preset, the kernel naming it as the config's source.
    if (loaded.filepath) configFile = { config: loaded.config, filepath: loaded.filepath };
  }
  const registry = new VaultRegistry(registryDir ?? configDir());
  // Inline config may be written in a seed's own form too (seed-config.ts).
  if (core.config) core.config = liftSeedConfig(core.config) as CoreKernelOptions['config'];
  const kernel = await createKernelWith({
    ...core,
    catalogue: options.catalogue ?? builtinLazyCatalogue,
    ...(configFile ? { configFile } : {}),
    logger: logger ?? ((config) => loggerFor(config, logging)),
    vaultNaming: registry,
    keepIndexInStep: options.keepIndexInStep ?? keepInStep,
    listSchema: options.listSchema ?? listedJsonSchema,
    // A plugin author's strict mode (and every test's): each answer held to its tool's output schema.
    checkToolOutputs: options.checkToolOutputs ?? process.env.NOTEKERNEL_CHECK_TOOL_OUTPUTS === '1',
  });
  kernel.provide(VAULT_REGISTRY, registry);
  return Object.assign(kernel, { registry });
}

/** A library is quiet unless asked: only the CLI (which passes `logging`) defaults to info. */
function loggerFor(config: ResolvedConfig, logging: KernelOptions['logging']): Logger {
  const fallback = logging ? (logging.defaultLevel ?? 'info') : 'silent';
  const level = logging?.level ?? process.env.NOTEKERNEL_LOG_LEVEL ?? config.logging.level ?? fallback;
  const file = logging?.file ?? config.logging.file;
  const format = logging?.format ?? config.logging.format;
  return createLogger({ level, ...(file ? { file } : {}), ...(format ? { format } : {}) });
}
