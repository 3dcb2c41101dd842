/** Services the kernel itself registers in every vault scope. Plugins add their own tokens. */
import { token } from './container.js';
import type { NoteStore, SearchIndex } from './backend.js';
import type { Logger } from './logger.js';
import type { NoteService } from './notes.js';
import type { Vault } from './vault.js';
import type { VaultInfo } from './vault-info.js';
import type { VaultRegistry } from './vaults/registry.js';

/** What vault-management tools need of the process's router (provided by the entry point that serves several vaults). */
export interface VaultSwitchboard {
  /** The open vault with this id, opening a registered one on first use. */
  vault(id: string): Promise<Vault>;
  /** Makes the registered vault `id` the one calls go to. */
  switchTo(id: string): Promise<Vault>;
}

export const LOGGER = token<Logger>('kernel.logger');
export const VAULT_INFO = token<VaultInfo>('kernel.vault-info');
export const NOTE_STORE = token<NoteStore>('kernel.note-store');
export const SEARCH_INDEX = token<SearchIndex>('kernel.search-index');
export const NOTES = token<NoteService>('kernel.notes');
export const VAULT_REGISTRY = token<VaultRegistry>('kernel.vault-registry');
export const VAULT_ROUTER = token<VaultSwitchboard>('kernel.vault-router');
