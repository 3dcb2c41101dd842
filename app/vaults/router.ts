/**
 * Serves several registered vaults from one process. Calls go to the active vault unless they
 * carry a `vault_id` naming another one, which is then opened (once) and served without
 * switching the active vault — seed 000's "vault-specific operations".
 */
import type { NoteEvent } from '../../kernel/hooks.js';
import type { Kernel, OpenVaultOptions } from '../../kernel/kernel.js';
import type { Logger } from '../../kernel/logger.js';
import type { PromptDefinition, ResourceDefinition } from '../../kernel/plugin.js';
import type { ToolInfo } from '../../kernel/tool.js';
import type { ToolHost } from '../tool-host.js';
import type { CallOptions, Vault } from '../../kernel/vault.js';
import type { VaultInfo } from '../../kernel/vault-info.js';
import { NotFoundError } from '../../kernel/errors.js';
import { checkVaultIdLength } from '../../kernel/name-limits.js';
import type { VaultRegistry } from '../../plugins/vaults/registry.js';
import { VAULT_ROUTER, type VaultSwitchboard } from '../../plugins/vaults/service.js';
import type { ServedKernel } from '../create-kernel.js';

export class VaultRouter implements ToolHost, VaultSwitchboard {
  private active?: Vault;
  private readonly byId = new Map<string, Promise<Vault>>();
  private readonly changeListeners = new Set<(event: NoteEvent, vaultId: string) => void>();
  private readonly observed = new WeakSet<Vault>();

  constructor(
    private readonly kernel: Kernel,
    readonly registry: VaultRegistry,
    private readonly openOptions: OpenVaultOptions = {},
  ) {}

  /** Opens the vault at `path`, or the registry's current vault when no path is given. */
  async start(path?: string): Promise<Vault> {
    let target = path ?? this.kernel.config.vault;
    // A backend whose folder is optional (a remote store's cache) opens without one rather than
    // in some registered vault's folder.
    if (!target && this.kernel.plan.storage.definition.folder !== 'required') {
      const vault = this.observe(await this.kernel.openVault(undefined, this.openOptions));
      this.active = vault;
      this.byId.set(vault.info.id, Promise.resolve(vault));
      return vault;
    }
    if (!target) {
      const id = await this.registry.currentId();
      if (!id) {
        throw new NotFoundError(
          'No vault given and none is registered: pass --vault DIR, or create one with create_vault / `notekernel create`.',
        );
      }
      target = (await this.registry.require(id)).path;
    }
    const vault = this.observe(await this.kernel.openVault(target, this.openOptions));
    this.active = vault;
    this.byId.set(vault.info.id, Promise.resolve(vault));
    return vault;
  }

  get current(): Vault {
    if (!this.active) throw new NotFoundError('No vault is open.');
    return this.active;
  }

  /** The open vault with this id, opening a registered one on first use. */
  vault(id: string): Promise<Vault> {
    let opening = this.byId.get(id);
    if (!opening) {
      opening = this.registry
        .require(id)
        .then(async (entry) => this.observe(await this.kernel.openVault(entry.path, { ...this.openOptions, id })));
      opening.catch(() => this.byId.delete(id));
      this.byId.set(id, opening);
    }
    return opening;
  }

  async switchTo(id: string): Promise<Vault> {
    const vault = await this.vault(id);
    await this.registry.setCurrent(id);
    this.active = vault;
    return vault;
  }

  get info(): VaultInfo {
    return this.current.info;
  }

  get logger(): Logger {
    return this.current.logger;
  }

  tools(): ToolInfo[] {
    return this.current.tools();
  }

  hasTool(name: string): boolean {
    return this.current.hasTool(name);
  }

  async call(name: string, args?: unknown, options?: CallOptions): Promise<unknown> {
    const current = this.current;
    const vaultId = (args as { vault_id?: unknown } | undefined)?.vault_id;
    if (typeof vaultId === 'string' && vaultId !== current.info.id && !current.isGlobalTool(name)) {
      checkVaultIdLength(vaultId);
      // Seed 000's mcp_server.auto_switch_vault: the vault a call names becomes the current one.
      if (await this.registry.autoSwitch()) return (await this.switchTo(vaultId)).call(name, args, options);
      return (await this.vault(vaultId)).call(name, args, options);
    }
    return current.call(name, args, options);
  }

  resources(): ResourceDefinition[] {
    return this.current.resources();
  }

  readResource(uri: string): Promise<unknown> {
    return this.current.readResource(uri);
  }

  prompts(): PromptDefinition[] {
    return this.current.prompts();
  }

  /** Changes in every vault this router has open, tagged with the vault's id. */
  onNoteChange(listener: (event: NoteEvent, vaultId: string) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private observe(vault: Vault): Vault {
    if (this.observed.has(vault)) return vault;
    this.observed.add(vault);
    vault.onNoteChange((event) => {
      for (const listener of this.changeListeners) listener(event, vault.info.id);
    });
    return vault;
  }
}

/** A router serving the registry's vaults by `vault_id`; vault-management tools reach it through VAULT_ROUTER. */
export function createRouter(kernel: ServedKernel, options: OpenVaultOptions = {}): VaultRouter {
  const router = new VaultRouter(kernel, kernel.registry, options);
  kernel.provide(VAULT_ROUTER, router);
  return router;
}
