/**
 * What the vault tools reach through the container: the global registry and the router. The
 * entry point that serves vaults (app/) provides both, before the first vault opens.
 */
import { token } from '../../kernel/container.js';
import type { Vault } from '../../kernel/vault.js';
import type { VaultRegistry } from './registry.js';

/** What vault-management tools need of the process's router. */
export interface VaultSwitchboard {
  /** The open vault with this id, opening a registered one on first use. */
  vault(id: string): Promise<Vault>;
  /** Makes the registered vault `id` the one calls go to. */
  switchTo(id: string): Promise<Vault>;
}

export const VAULT_REGISTRY = token<VaultRegistry>('vaults.registry');
export const VAULT_ROUTER = token<VaultSwitchboard>('vaults.router');
