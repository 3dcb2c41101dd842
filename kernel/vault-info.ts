import { CapabilityError } from './errors.js';
/** What every plugin, tool and backend may know about the vault it serves. */
export interface VaultInfo {
  /** Registry id where the vault is registered (flint), else the folder name. */
  id: string;
  /** The vault's folder (absolute, symlinks resolved), when its storage backend keeps one (`BackendDefinition.folder`). */
  root?: string;
  profile: string;
  readOnly: boolean;
  /** Why, when the vault is read-only though no option asked for it (its folder cannot be written). */
  readOnlyReason?: string;
  storageBackend: string;
  searchBackend?: string;
}

/** The vault's folder, for a plugin that works on files beside the notes; refused on a vault that has none. */
export function requireVaultFolder(info: VaultInfo, needer: string): string {
  if (info.root !== undefined) return info.root;
  throw new CapabilityError(
    `${needer} works on the vault's folder, and vault "${info.id}" (storage backend "${info.storageBackend}") keeps its notes in none.`,
    { needed_by: needer, backend: info.storageBackend },
  );
}
