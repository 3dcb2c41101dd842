/** What a config may name: the plugins, backends and profiles an entry point offers. The kernel knows none by name. */
import type { BackendDefinition } from '../kernel/backend.js';
import type { PluginDefinition } from '../kernel/plugin.js';

/** A profile: a storage backend, maybe a search backend, and the plugins it loads, which a user's config overrides. */
export interface ProfilePreset {
  id: string;
  description: string;
  storage: { backend: string; options?: Record<string, unknown> };
  search?: { backend: string; options?: Record<string, unknown> };
  plugins: Record<string, true | Record<string, unknown>>;
  tools?: { rename?: Record<string, string>; hide?: string[] };
}

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
