/**
 * From a config to a kernel: the user's config checked and merged over its profile preset, only
 * the plugins and backends it chooses loaded from the catalogue, and the kernel planned. Profiles
 * sit above the kernel, so this is the app's.
 */
import type { ResolvedConfig } from '../../kernel/config/schema.js';
import { NotekernelError, PluginDependencyError } from '../../kernel/errors.js';
import { Kernel, type KernelExtras } from '../../kernel/kernel.js';
import { silentLogger, type Logger } from '../../kernel/logger.js';
import type { Catalogue, LazyCatalogue, ProfilePreset } from '../../profiles/catalogue-types.js';
import { planKernel } from '../../kernel/plan.js';
import { parseUserConfig, resolveConfig } from './resolve.js';
import type { UserConfig } from './user-config.js';

/** A kernel from a config and a catalogue; the package's `createKernel` (create-kernel.ts) adds finding a config file and logging. */
export interface KernelOptions extends KernelExtras {
  /** Profile id; overrides the config's `profile`. */
  profile?: string;
  /** Inline config (same shape as a config file). Without it and `configFile`: the profile's preset. */
  config?: UserConfig;
  /** A config file already found, read and checked (the app's loader); used when `config` is not given. */
  configFile?: { config: UserConfig; filepath: string };
  /**
   * The plugins, backends and profiles a config may name: given whole, or lazily (imported by id
   * when chosen). The kernel knows none by name; the package's entry (app/) passes the built-ins.
   */
  catalogue: Catalogue | LazyCatalogue;
  /** Where logs go, or how to make the logger from the resolved config; without it nothing is logged. */
  logger?: Logger | ((config: ResolvedConfig) => Logger);
  readOnly?: boolean;
  /**
   * Applied to the resolved config before the kernel is planned: where the CLI reads a seed's own
   * environment variables (seed 004's VAULT_PATH and CHROMA_PATH) into the config they mean.
   */
  adjustConfig?: (config: ResolvedConfig) => ResolvedConfig;
}

/** Resolves the config (inline or none) over its profile and plans the kernel. */
export async function createKernel(options: KernelOptions): Promise<Kernel> {
  const catalogue = isLazy(options.catalogue) ? choosing(options.catalogue) : everything(options.catalogue);
  const file = options.config ? undefined : options.configFile;
  const user = options.config ? parseUserConfig(options.config, 'inline config') : (file?.config ?? {});
  const source = options.config
    ? 'inline config'
    : (file?.filepath ?? `profile ${options.profile ?? user.profile ?? 'flint'} (no config file)`);
  const resolved = resolveConfig(
    { ...user, ...(options.readOnly !== undefined ? { readOnly: options.readOnly } : {}) },
    source,
    catalogue,
    options.profile ? { profile: options.profile } : {},
  );
  const located = file ? { ...resolved, file: file.filepath } : resolved;
  const config = options.adjustConfig ? options.adjustConfig(located) : located;
  const chosen = await catalogue.load(config);
  const plan = withConfigSource(config.file ?? config.source, () =>
    planKernel(config, chosen.plugins, chosen.backends),
  );
  const logger = typeof options.logger === 'function' ? options.logger(config) : (options.logger ?? silentLogger());
  return new Kernel(config, plan, logger, {
    ...(options.vaultNaming ? { vaultNaming: options.vaultNaming } : {}),
    ...(options.keepIndexInStep ? { keepIndexInStep: options.keepIndexInStep } : {}),
    ...(options.checkToolOutputs ? { checkToolOutputs: true } : {}),
    ...(options.listSchema ? { listSchema: options.listSchema } : {}),
  });
}

/** The ids a config is checked against, then only the chosen definitions, imported. */
interface ChoosingCatalogue {
  profiles: readonly ProfilePreset[];
  pluginIds: readonly string[];
  backendIds: readonly string[];
  load(config: ResolvedConfig): Promise<Pick<Catalogue, 'plugins' | 'backends'>>;
}

function isLazy(catalogue: Catalogue | LazyCatalogue): catalogue is LazyCatalogue {
  return !Array.isArray(catalogue.plugins);
}

/** A catalogue given whole (tests, embedders with plugins of their own): nothing left to load. */
function everything(catalogue: Catalogue): ChoosingCatalogue {
  return {
    profiles: catalogue.profiles,
    pluginIds: catalogue.plugins.map((p) => p.id),
    backendIds: catalogue.backends.map((b) => b.id),
    load: async () => catalogue,
  };
}

function choosing(lazy: LazyCatalogue): ChoosingCatalogue {
  return {
    profiles: lazy.profiles,
    pluginIds: Object.keys(lazy.plugins),
    backendIds: Object.keys(lazy.backends),
    async load(config) {
      const backendIds = [config.storage.backend, ...(config.search ? [config.search.backend] : [])];
      const [plugins, backends] = await Promise.all([
        Promise.all(config.plugins.map(({ id }) => loadById(lazy.plugins, id, 'Plugin'))),
        Promise.all(backendIds.map((id) => loadById(lazy.backends, id, 'Backend'))),
      ]);
      return { plugins, backends };
    },
  };
}

/** resolveConfig has checked every id against the catalogue's lists; a miss here is a catalogue bug. */
function loadById<T>(loaders: Readonly<Record<string, () => Promise<T>>>, id: string, what: string): Promise<T> {
  const load = loaders[id];
  if (!load) throw new PluginDependencyError(`${what} "${id}" is listed but cannot be loaded.`, { id });
  return load();
}

/** A plan error (unknown plugin, missing dependency or capability) names the config it came from. */
function withConfigSource<T>(source: string, plan: () => T): T {
  try {
    return plan();
  } catch (err) {
    if (
      err instanceof NotekernelError &&
      (err.code === 'plugin_dependency' || err.code === 'capability_missing') &&
      !err.message.startsWith(source)
    ) {
      err.message = `${source}: ${err.message}`;
    }
    throw err;
  }
}
