import { CapabilityError } from '../kernel/errors.js';
import type { VaultInfo } from '../kernel/vault-info.js';

/** The vault's folder, for a plugin that works on files beside the notes; refused on a vault that has none. */
export function requireVaultFolder(info: VaultInfo, needer: string): string {
  if (info.root !== undefined) return info.root;
  throw new CapabilityError(
    `${needer} works on the vault's folder, and vault "${info.id}" (storage backend "${info.storageBackend}") keeps its notes in none.`,
    { needed_by: needer, backend: info.storageBackend },
  );
}
