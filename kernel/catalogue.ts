/** What a config may name: the plugins, backends and profiles an entry point offers. The kernel knows none by name. */
import type { BackendDefinition } from './backend.js';
import type { ProfilePreset } from './config/schema.js';
import type { PluginDefinition } from './plugin.js';

/** Given whole (tests, embedders with plugins of their own). */
export interface Catalogue {
  plugins: readonly PluginDefinition<unknown>[];
  backends: readonly BackendDefinition<unknown>[];
  profiles: readonly ProfilePreset[];
}

/** A catalogue whose plugins and backends are imported by id, only when a config chooses them. */
export interface LazyCatalogue {
  profiles: readonly ProfilePreset[];
  plugins: Readonly<Record<string, () => Promise<PluginDefinition<unknown>>>>;
  backends: Readonly<Record<string, () => Promise<BackendDefinition<unknown>>>>;
}

