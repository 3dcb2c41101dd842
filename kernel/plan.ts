/**
 * Start-up checks that need no I/O: plugin options validated, plugins ordered by `dependsOn`,
 * and every capability a plugin needs found on the chosen backends. Each failure names the
 * plugin, the backend and the capability (or the cycle), before a single file is touched.
 */
import type { BackendDefinition, Capability } from './backend.js';
import { CAPABILITIES, CAPABILITY_ROLE, canonicalCapabilities } from './backend.js';
import type { ResolvedConfig } from './config/schema.js';
import { CapabilityError, PluginDependencyError } from './errors.js';
import type { KernelPlan } from './kernel.js';
import type { PluginDefinition } from './plugin.js';
import { configIssue } from './config/config-keys.js';

export function planKernel(
  config: ResolvedConfig,
  pluginDefs: readonly PluginDefinition<unknown>[],
  backendDefs: readonly BackendDefinition<unknown>[],
): KernelPlan {
  const storage = planBackend(config, backendDefs, config.storage, 'storage');
  const search = config.search ? planBackend(config, backendDefs, config.search, 'search') : undefined;
  const providers = capabilityProviders(storage.definition, search?.definition);
  const capabilities = new Set(providers.keys());

  const byId = new Map(pluginDefs.map((p) => [p.id, p]));
  const chosen = config.plugins.map(({ id, options }) => {
    const definition = byId.get(id);
    if (!definition) {
      throw new PluginDependencyError(`Plugin "${id}" is not known; known plugins: ${[...byId.keys()].join(', ')}`, {
        plugin: id,
      });
    }
    let parsed: unknown = options;
    if (definition.config) {
      const result = definition.config.safeParse(options);
      if (!result.success) throw configIssue(config.source, result.error, ['plugins', id], definition.config);
      parsed = result.data;
    }
    return { definition, options: parsed };
  });

  const ordered = orderByDependencies(chosen);
  for (const { definition } of ordered) {
    for (const capability of canonicalCapabilities(definition.requires ?? [])) {
      if (capabilities.has(capability)) continue;
      const role = CAPABILITY_ROLE[capability];
      const backend = role === 'search' ? (search ?? storage).definition.id : storage.definition.id;
      throw new CapabilityError(
        `Plugin "${definition.id}" needs capability "${capability}" (${CAPABILITIES[capability]}), which the ${role} backend "${backend}" does not provide (the vault provides: ${[...capabilities].join(', ') || 'none'}).`,
        { plugin: definition.id, backend, role, capability },
      );
    }
  }
  return { config, storage, ...(search ? { search } : {}), plugins: ordered, capabilities, providers };
}

/**
 * Capabilities by role: a configured search backend replaces the storage backend's own index,
 * so the storage backend's search capabilities (fs-sqlite's `sql`, say) are not offered then.
 */
export function capabilityProviders(
  storage: BackendDefinition<unknown>,
  search?: BackendDefinition<unknown>,
): Map<Capability, string> {
  const providers = new Map<Capability, string>();
  const searcher = search ?? (storage.kind === 'both' ? storage : undefined);
  for (const capability of canonicalCapabilities(storage.capabilities))
    if (CAPABILITY_ROLE[capability] === 'storage') providers.set(capability, storage.id);
  for (const capability of canonicalCapabilities(searcher?.capabilities ?? []))
    if (CAPABILITY_ROLE[capability] === 'search') providers.set(capability, searcher!.id);
  return providers;
}

function planBackend(
  config: ResolvedConfig,
  defs: readonly BackendDefinition<unknown>[],
  choice: { backend: string; options: Record<string, unknown> },
  role: 'storage' | 'search',
): { definition: BackendDefinition<unknown>; options: unknown } {
  const definition = defs.find((d) => d.id === choice.backend);
  if (!definition) {
    throw new PluginDependencyError(
      `Backend "${choice.backend}" is not known; known backends: ${defs.map((d) => d.id).join(', ')}`,
      {
        backend: choice.backend,
      },
    );
  }
  if (definition.kind !== 'both' && definition.kind !== role) {
    throw new CapabilityError(
      `Backend "${definition.id}" is a ${definition.kind} backend and cannot serve as ${role}.`,
      {
        backend: definition.id,
        role,
      },
    );
  }
  const result = definition.options.safeParse(choice.options);
  if (!result.success) throw configIssue(config.source, result.error, [role, 'options'], definition.options);
  return { definition, options: result.data };
}

/** Depth-first topological sort that keeps the config's order where dependencies allow. */
function orderByDependencies<T extends { definition: PluginDefinition<unknown> }>(plugins: readonly T[]): T[] {
  const byId = new Map(plugins.map((p) => [p.definition.id, p]));
  const state = new Map<string, 'visiting' | 'done'>();
  const ordered: T[] = [];

  const visit = (entry: T, trail: string[]): void => {
    const id = entry.definition.id;
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(id)), id];
      throw new PluginDependencyError(`Plugins depend on each other in a cycle: ${cycle.join(' → ')}`, { cycle });
    }
    state.set(id, 'visiting');
    for (const dep of entry.definition.dependsOn ?? []) {
      const target = byId.get(dep);
      if (!target) {
        throw new PluginDependencyError(
          `Plugin "${id}" depends on plugin "${dep}", which is not loaded; add "${dep}" to plugins in the config or drop "${id}".`,
          { plugin: id, missing: dep },
        );
      }
      visit(target, [...trail, id]);
    }
    state.set(id, 'done');
    ordered.push(entry);
  };

  for (const entry of plugins) visit(entry, []);
  return ordered;
}
