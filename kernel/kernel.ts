/**
 * Lifecycle: the app resolves the config over its profile; planKernel (plan.ts) orders the plugins
 * by dependsOn and refuses a missing capability before any I/O → per vault: open backends →
 * register plugins one at a time → freeze → serve → dispose in reverse.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { Scope, type Token } from './container.js';
import {
  canonicalCapabilities,
  capabilityShapeProblems,
  type BackendDefinition,
  type Capability,
  type BackendInstance,
  type ReconcileSource,
  type SearchIndex,
} from './backend.js';
import { VaultFaults, type FaultReporter } from './faults.js';
import type { ListSchema } from './tool.js';
import { capabilityGatedSearch } from './search-gate.js';
import { BackendUnavailableError, CapabilityError, NotFoundError, NotekernelError } from './errors.js';
import { HookRunner } from './hooks.js';
import type { Logger } from './logger.js';
import { NoteService } from './notes.js';
import type { CliCommandDefinition, PluginDefinition, PromptDefinition, ResourceDefinition } from './plugin.js';
import { noProgress, type ProgressReporter } from './progress.js';
import { ToolRegistry } from './registry.js';
import { LOGGER, NOTES, NOTE_STORE, SEARCH_INDEX, VAULT_INFO } from './tokens.js';
import { Vault } from './vault.js';
import type { VaultInfo } from './vault-info.js';
import type { ResolvedConfig } from './config/schema.js';

/** What a config chose, checked before any I/O and plugins in `dependsOn` order (plan.ts). */
export interface KernelPlan {
  config: ResolvedConfig;
  storage: { definition: BackendDefinition<unknown>; options: unknown };
  search?: { definition: BackendDefinition<unknown>; options: unknown };
  plugins: Array<{ definition: PluginDefinition<unknown>; options: unknown }>;
  /** What the vault offers: the store's capabilities from the storage backend, the search ones from whichever backend serves search. */
  capabilities: ReadonlySet<Capability>;
  /** Which backend serves each capability the vault offers. */
  providers: ReadonlyMap<Capability, string>;
}

/** The index readers see, kept in step with `store`; its `close` lets its queue drain. */
export type KeepIndexInStep = (
  index: SearchIndex,
  store: ReconcileSource,
  logger: Logger,
) => SearchIndex | Promise<SearchIndex>;

/** Names a vault opened by its folder (the app's vault registry): its id, when it has one. */
export interface VaultNaming {
  findByPath(root: string): Promise<{ id: string } | undefined>;
}

/** What an entry point adds to a kernel (the app's: its vault registry, the index outbox, the strict answer check). */
export interface KernelExtras {
  /** Ids for vaults opened by folder; without it a vault is named after its folder. */
  vaultNaming?: VaultNaming;
  /** How a search index beside the store keeps in step; without it, caught up at open and written in line. */
  keepIndexInStep?: KeepIndexInStep;
  /** Every tool answer is held to its output schema; a mismatch is an `internal` error naming the path. */
  checkToolOutputs?: boolean;
  /** How tool schemas are listed (the app's compaction); without it, as zod writes them. */
  listSchema?: ListSchema;
}

export interface OpenVaultOptions {
  /** Registry id (flint's vault_id); defaults to the folder name. */
  id?: string;
  /** Follow external edits while open (servers do; one-shot CLI calls do not). */
  watch?: boolean;
  progress?: ProgressReporter;
}

export class Kernel {
  private readonly root: Scope;
  private readonly vaults = new Set<Vault>();

  constructor(
    readonly config: ResolvedConfig,
    readonly plan: KernelPlan,
    readonly logger: Logger,
    private readonly extras: KernelExtras = {},
  ) {
    this.root = Scope.root('kernel');
    this.root.provide(LOGGER, logger);
  }

  /** Offers a service to every vault's plugins (an entry point's router, say), before the first vault opens. */
  provide<T>(tok: Token<T>, value: T): void {
    this.root.provide(tok, value);
  }

  /**
   * Opens a vault. `vaultPath` is its folder for a storage backend that keeps one (required,
   * or optional), and is not used by one that keeps none (an in-memory or remote store): such a
   * vault is named by `options.id`, else by its storage backend.
   */
  async openVault(vaultPath?: string, options: OpenVaultOptions = {}): Promise<Vault> {
    const plan = this.plan;
    const root = await this.vaultFolder(plan.storage.definition, vaultPath ?? this.config.vault);
    const info: VaultInfo = {
      id: options.id ?? (root ? ((await this.registeredId(root)) ?? path.basename(root)) : plan.storage.definition.id),
      ...(root ? { root } : {}),
      profile: this.config.profile,
      readOnly: this.config.readOnly,
      storageBackend: plan.storage.definition.id,
      ...(plan.search ? { searchBackend: plan.search.definition.id } : {}),
    };
    const logger = this.logger.child({ vault: info.id });
    const faults = new VaultFaults(logger);
    const scope = this.root.child(`vault:${info.id}`);
    try {
      // A storage backend beside a search backend is told so: its own search index would go unread.
      const storage = await openBackend(
        plan.storage.definition,
        plan.storage.options,
        info,
        logger,
        faults,
        options.progress,
        !plan.search,
      );
      if (storage.store === undefined)
        throw new BackendUnavailableError(`Backend "${plan.storage.definition.id}" opened no note store.`);
      const store = storage.store;
      if (storage.readOnly !== undefined && !info.readOnly) {
        logger.warn({ reason: storage.readOnly }, 'serving the vault read-only');
        info.readOnly = true;
        info.readOnlyReason = storage.readOnly;
      }
      scope.onDispose(() => store.close());
      // Disposers run in reverse: the index (and any helper process it runs) closes first.
      const ownIndex = storage.search;
      if (ownIndex) scope.onDispose(() => ownIndex.close());

      // A configured search backend replaces the store's own index (capabilities by role: plan.ts).
      let search = storage.search;
      let separateIndex: SearchIndex | undefined;
      if (plan.search) {
        const opened = await openBackend(
          plan.search.definition,
          plan.search.options,
          info,
          logger,
          faults,
          options.progress,
          true,
        );
        const externalIndex = opened.search;
        if (!externalIndex)
          throw new BackendUnavailableError(`Backend "${plan.search.definition.id}" opened no search index.`);
        scope.onDispose(() => externalIndex.close());
        const inStep = await (this.extras.keepIndexInStep ?? inLine)(
          externalIndex,
          store,
          logger.child({ backend: plan.search.definition.id }),
        );
        if (inStep !== externalIndex) scope.onDispose(() => inStep.close());
        separateIndex = inStep;
        search = inStep;
      }
      const searchBackend = plan.search?.definition.id ?? info.storageBackend;
      if (search) search = capabilityGatedSearch(search, plan.capabilities, searchBackend);

      const hooks = new HookRunner(logger);
      const notes = new NoteService({
        store,
        storageBackend: info.storageBackend,
        ...(separateIndex ? { separateIndex } : {}),
        hooks,
        logger,
      });
      scope.provide(VAULT_INFO, info);
      scope.provide(LOGGER, logger);
      scope.provide(NOTE_STORE, store);
      scope.provide(NOTES, notes);
      if (search) scope.provide(SEARCH_INDEX, search);

      const registry = new ToolRegistry(this.config.tools, info, this.config.limits.messageBytes, faults, this.extras);
      const resources: ResourceDefinition[] = [];
      const prompts: PromptDefinition[] = [];
      const cli: CliCommandDefinition[] = [];
      for (const { definition, options: pluginOptions } of plan.plugins) {
        const pluginLogger = logger.child({ plugin: definition.id });
        let contribution;
        try {
          contribution = await definition.register({
            pluginId: definition.id,
            options: pluginOptions,
            vault: info,
            logger: pluginLogger,
            store,
            ...(search ? { search } : {}),
            notes,
            capabilities: plan.capabilities,
            ...(this.config.file ? { configDir: path.dirname(this.config.file) } : {}),
            resolve: (tok) => scope.resolve(tok, `plugin ${definition.id}`),
            tryResolve: (tok) => scope.tryResolve(tok),
          });
        } catch (err) {
          if (err instanceof NotekernelError) throw err;
          throw new NotekernelError(
            'internal',
            `Plugin "${definition.id}" failed to register: ${(err as Error).message}`,
            { plugin: definition.id },
            { cause: err },
          );
        }
        for (const { token, value } of contribution.services ?? []) scope.provide(token, value);
        for (const tool of contribution.tools ?? []) {
          for (const capability of canonicalCapabilities(tool.requires ?? [])) {
            if (!plan.capabilities.has(capability)) {
              throw new CapabilityError(
                `Tool "${tool.name}" of plugin "${definition.id}" needs capability "${capability}", which backend ${backendNames(info)} does not provide.`,
                { plugin: definition.id, tool: tool.name, backend: backendNames(info), capability },
              );
            }
          }
          registry.add(definition.id, tool);
        }
        if (contribution.hooks) hooks.add(definition.id, contribution.hooks);
        resources.push(...(contribution.resources ?? []));
        prompts.push(...(contribution.prompts ?? []));
        cli.push(...(contribution.cli ?? []));
        const dispose = contribution.dispose;
        if (dispose) scope.onDispose(dispose);
      }
      registry.freeze();
      hooks.freeze();
      const unused = registry.unusedNames();
      if (unused.length)
        logger.warn(
          { names: unused, config: this.config.source },
          'tools.rename / tools.hide name tools that no loaded plugin serves',
        );

      // Before anyone reads: a multi-note operation a dead process left open is finished or rolled back.
      await hooks.runSequential('vault.open', { readOnly: info.readOnly === true });

      if (options.watch && store.watch) {
        const stop = store.watch((change) => {
          notes
            .applyExternal(change)
            .catch((err: unknown) => logger.error({ err }, 'applying an external change failed'));
        });
        scope.onDispose(stop);
      }

      const vault: Vault = new Vault({
        info,
        scope,
        registry,
        hooks,
        notes,
        logger,
        faults,
        resources,
        prompts,
        cli,
        onClose: () => this.vaults.delete(vault),
      });
      this.vaults.add(vault);
      return vault;
    } catch (err) {
      await scope
        .dispose()
        .catch((disposeErr: unknown) => logger.error({ err: disposeErr }, 'dispose after a failed open failed'));
      throw err;
    }
  }

  async close(): Promise<void> {
    for (const vault of [...this.vaults]) await vault.close();
    await this.root.dispose();
  }

  private async vaultFolder(
    storage: BackendDefinition<unknown>,
    target: string | undefined,
  ): Promise<string | undefined> {
    if (storage.folder === 'none') return undefined;
    if (target) return realDirectory(target);
    if (storage.folder === 'optional') return undefined;
    throw new NotFoundError(
      `No vault given: backend "${storage.id}" keeps notes in a folder; pass one (--vault DIR) or set "vault" in the config.`,
    );
  }

  private async registeredId(root: string): Promise<string | undefined> {
    try {
      return (await this.extras.vaultNaming?.findByPath(root))?.id;
    } catch (err) {
      // A broken registry must not stop a vault named by path from opening.
      this.logger.warn({ err }, 'vault registry unreadable; naming the vault after its folder');
      return undefined;
    }
  }
}

function backendNames(info: VaultInfo): string {
  return [info.storageBackend, info.searchBackend]
    .filter(Boolean)
    .map((id) => `"${id}"`)
    .join(' + ');
}

async function openBackend(
  definition: BackendDefinition<unknown>,
  options: unknown,
  info: VaultInfo,
  logger: Logger,
  faults: FaultReporter,
  progress: ProgressReporter | undefined,
  servesSearch: boolean,
): Promise<BackendInstance> {
  let instance: BackendInstance;
  try {
    const folder = definition.folder === 'none' ? undefined : info.root;
    instance = await definition.create({
      ...(folder ? { folder } : {}),
      options,
      logger: logger.child({ backend: definition.id }),
      readOnly: info.readOnly,
      progress: progress ?? noProgress,
      faults,
      servesSearch,
    });
  } catch (err) {
    if (err instanceof NotekernelError) throw err;
    throw new BackendUnavailableError(
      `Backend "${definition.id}" could not open vault "${info.id}": ${(err as Error).message}`,
      { backend: definition.id },
      err,
    );
  }
  const problems = capabilityShapeProblems(definition, instance);
  if (problems.length) {
    await instance.store?.close();
    throw new CapabilityError(
      `Backend "${definition.id}" does not match its declared capabilities: ${problems.join('; ')}`,
      { backend: definition.id, problems },
    );
  }
  return instance;
}

async function realDirectory(target: string): Promise<string> {
  const absolute = path.resolve(target);
  let stat;
  try {
    stat = await fs.stat(absolute);
  } catch {
    throw new NotFoundError(`Vault path does not exist: ${absolute}`, { path: absolute });
  }
  if (!stat.isDirectory()) throw new NotFoundError(`Vault path is not a directory: ${absolute}`, { path: absolute });
  return fs.realpath(absolute);
}

/** Without a queue: the index is caught up with the store before the vault serves. */
async function inLine(index: SearchIndex, store: ReconcileSource, logger: Logger): Promise<SearchIndex> {
  if (index.reconcile) logger.info(await index.reconcile(store), 'search index reconciled with the store');
  return index;
}
